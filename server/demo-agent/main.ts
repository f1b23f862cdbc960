// Entry point: `node --import tsx server/demo-agent/main.ts [flags]`. Reads the options,
// connects the agent to stdio (stdout carries protocol frames only; logs go to stderr).
import { Readable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createDemoAgent } from "./demo-agent";
import { createInitializeGate } from "./input-gate";
import { OptionsError, parseAgentOptions } from "./options";
import { createAgentWire } from "./wire";

function log(message: string): void {
  process.stderr.write(`demo-agent: ${message}\n`);
}

function readOptions() {
  try {
    return parseAgentOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    log(error.message);
    process.exit(2);
  }
}

const options = readOptions();
const gate = createInitializeGate();
const wire = createAgentWire(process.stdout, gate.observeOutput);
const demoAgent = createDemoAgent(options, wire, { exit: (code) => process.exit(code), log });
const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
const connection = demoAgent.app.connect(
  ndJsonStream(wire.output, gate.hold(input, demoAgent.settled)),
);
log(
  `ready (speed ${options.speed}, context ${options.contextSize}, auto-compact at ${options.autoCompactAt}, commands ${options.commands}, state in ${options.stateDir})`,
);
void connection.closed.then(() => process.exit(0));
