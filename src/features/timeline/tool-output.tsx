import { SafeMarkdown } from "../../components/safe-markdown";
import { ScrollBox } from "../../components/scroll-box";
import { DiffBlock } from "./lazy-diff-block";
import { TerminalBlock } from "./terminal-block";
import type { ToolBlock, ToolOutputView } from "./tool-output-view";
import { toolPayloadText } from "./tool-view";

/**
 * What a tool call did: its command, diffs, text and terminal output; the raw input and
 * output stay behind a "Raw" disclosure, for when the readable view is not enough.
 */
export function ToolOutput({ view }: { view: ToolOutputView }) {
  const hasRaw = view.rawInput !== undefined || view.rawOutput !== undefined;
  return (
    <div className="space-y-2">
      {view.command !== undefined ? <CommandLine command={view.command} /> : null}
      {view.blocks.map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: content blocks are positional in ACP
        <ToolBlockView key={index} block={block} />
      ))}
      {view.error ? (
        <p className="text-xs whitespace-pre-wrap text-red-800 dark:text-red-300">
          Error: {view.error}
        </p>
      ) : null}
      {hasRaw ? (
        <details className="text-xs">
          <summary className="cursor-pointer font-medium text-slate-700 dark:text-slate-300">
            Raw input and output
          </summary>
          <div className="mt-1 space-y-2">
            <RawPayload label="Raw input" value={view.rawInput} />
            <RawPayload label="Raw output" value={view.rawOutput} />
          </div>
        </details>
      ) : null}
    </div>
  );
}

export function CommandLine({ command }: { command: string }) {
  return (
    <div>
      <p className="text-xs font-medium text-slate-600 dark:text-slate-300">Command</p>
      <pre className="mt-0.5 overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900">
        <span aria-hidden="true" className="select-none text-slate-500">
          ${" "}
        </span>
        {command}
      </pre>
    </div>
  );
}

function ToolBlockView({ block }: { block: ToolBlock }) {
  switch (block.kind) {
    case "diff":
      return <DiffBlock diff={block.diff} proposed={block.proposed === true} />;
    case "terminal":
      return <TerminalBlock terminal={block.terminal} />;
    case "text":
      return (
        <div className="text-sm">
          <SafeMarkdown text={block.text} />
        </div>
      );
    case "plain":
      return (
        <ScrollBox className="max-h-80 rounded bg-slate-100 dark:bg-slate-900">
          <pre className="p-2 font-mono text-xs whitespace-pre-wrap break-all">{block.text}</pre>
        </ScrollBox>
      );
    default:
      return <p className="text-xs text-slate-600 dark:text-slate-400">{block.label}</p>;
  }
}

function RawPayload({ label, value }: { label: string; value: unknown }) {
  if (value === undefined) return null;
  return (
    <div>
      <p className="font-medium text-slate-600 dark:text-slate-300">{label}</p>
      <ScrollBox className="mt-0.5 max-h-80 rounded bg-slate-100 dark:bg-slate-900">
        <pre className="p-2 font-mono">{toolPayloadText(value)}</pre>
      </ScrollBox>
    </div>
  );
}
