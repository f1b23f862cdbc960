// Test support: the upstream-mode app served on 127.0.0.1:0, and a raw HTTP/1.1 client for
// requests no well-behaved client would send (absolute-form targets, dot segments, folds).

import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { serve } from "@hono/node-server";
import { createUpstreamApp } from "../upstream/upstream-app";
import { parseUpstreamTarget } from "../upstream/upstream-target";

export type TestProxy = {
  url: string;
  port: number;
  logs: string[];
  stop(): Promise<void>;
};

export async function startTestProxy(
  upstream: string,
  options: { upstreamToken?: string; token?: string; distDir?: string } = {},
): Promise<TestProxy> {
  let port: number | undefined;
  const logs: string[] = [];
  const { app, proxy } = createUpstreamApp({
    upstream: parseUpstreamTarget(upstream, options.upstreamToken),
    security: {
      allowedHosts: [],
      port: () => port,
      ...(options.token === undefined ? {} : { token: options.token }),
    },
    ...(options.distDir === undefined ? {} : { distDir: options.distDir }),
    log: (line) => logs.push(line),
    connectTimeoutMs: 2000,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
      port = (info as AddressInfo).port;
      resolve(listening);
    });
  });
  const bound = port ?? 0;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    logs,
    stop: () =>
      new Promise((resolve) => {
        proxy.close();
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}

/** Sends `head` (lines joined by CRLF, blank line added) and returns the whole raw answer. */
export function rawRequest(port: number, lines: string[], body = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      resolve(answer);
    });
    socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
  });
}

export function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? "0");
}
