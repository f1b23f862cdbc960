import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSse } from "./sse-reader";

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/event-stream" });
    // What a spec-conforming server may send and a naive "\n\n" splitter misreads: CRLF
    // line ends, fields without the optional space, data over two lines, a comment.
    response.write(': keepalive\r\n\r\nevent:transcript_delta\r\nid:7\r\ndata:{"a":1,\r\n');
    response.write('data:"b":2}\r\n\r\nevent: done\ndata: \n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("the tests' SSE reader", () => {
  it("when a server uses CRLF, fields without a space and multi-line data, then each event reads as a browser reads it", async () => {
    const sse = await openSse(url);
    const delta = await sse.waitFor((event) => event.event === "transcript_delta");
    expect(delta).toMatchObject({ id: "7", data: '{"a":1,\n"b":2}' });
    expect(JSON.parse(delta.data)).toEqual({ a: 1, b: 2 });
    await sse.waitFor((event) => event.event === "done");
    expect(sse.comments).toEqual(["keepalive"]);
    sse.close();
  });
});
