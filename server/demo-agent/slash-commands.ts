// The commands the agent advertises after session/new and session/load, and how a prompt's
// text maps onto them. Slash commands are ordinary prompt text in ACP; the compaction command
// is recognized only under the name that `--commands` advertises (none with `none`).
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import type { CompactionCommandChoice } from "./options";

const COMPACTION_DESCRIPTION = "Summarize the conversation to free context";

export function availableCommands(choice: CompactionCommandChoice): AvailableCommand[] {
  const commands: AvailableCommand[] = [];
  if (choice !== "none") {
    commands.push({
      name: choice,
      description: COMPACTION_DESCRIPTION,
      input: { hint: "<optional focus>" },
    });
  }
  commands.push(
    { name: "help", description: "List the commands and the demo scenarios" },
    {
      name: "demo",
      description: "Set up a demo scenario for the next compaction or reply",
      input: { hint: "<scenario> [value]" },
    },
  );
  return commands;
}

export type PromptIntent =
  | { kind: "compact"; focus: string | null }
  | { kind: "help" }
  | { kind: "demo"; argument: string }
  | { kind: "chat"; text: string };

export function parseIntent(text: string, choice: CompactionCommandChoice): PromptIntent {
  const match = /^\s*\/([\w-]+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return { kind: "chat", text };
  const name = match[1] ?? "";
  const argument = (match[2] ?? "").trim();
  if (choice !== "none" && name === choice) {
    return { kind: "compact", focus: argument === "" ? null : argument };
  }
  if (name === "help") return { kind: "help" };
  if (name === "demo") return { kind: "demo", argument };
  return { kind: "chat", text };
}
