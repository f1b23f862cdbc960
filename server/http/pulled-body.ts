// A response body made a piece at a time as the client reads (history, exports): `next`
// gives the next piece of text, or undefined when the answer is complete. Nothing is read
// ahead of the client, so a long answer holds one piece, and a client that stops reading
// stops the reads.
const encoder = new TextEncoder();

export function pulledBody(next: () => string | undefined): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      try {
        const text = next();
        if (text === undefined) controller.close();
        else controller.enqueue(encoder.encode(text));
      } catch (error) {
        // The status line is sent: a breach or a failed read can only end the body early,
        // which a client sees as JSON that does not parse, never as a complete wrong answer.
        controller.error(error);
      }
    },
  });
}
