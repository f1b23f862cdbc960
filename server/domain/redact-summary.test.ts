import { describe, expect, it } from "vitest";
import {
  capSummary,
  exposeSummary,
  joinSummaryBlocks,
  REDACTED,
  redactSecrets,
  SUMMARY_MAX_BYTES,
  TRUNCATION_SUFFIX,
} from "./redact-summary";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("redactSecrets", () => {
  it.each([
    ["an Anthropic key", "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv done", `key ${REDACTED} done`],
    ["an OpenAI key", "use sk-proj-1234567890abcdefghij now", `use ${REDACTED} now`],
    ["an AWS access key id", "AKIAIOSFODNN7EXAMPLE is set", `${REDACTED} is set`],
    ["a GitHub token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", REDACTED],
    [
      "a bearer token",
      "Authorization: Bearer abc.def-ghi_jkl",
      `Authorization: Bearer ${REDACTED}`,
    ],
    ["a password assignment", "password=hunter2 and more", `password=${REDACTED} and more`],
    ["an env-style secret", "export API_KEY=abcdef123", `export API_KEY=${REDACTED}`],
    ["a token assignment", "token = 'xyz'", `token = ${REDACTED}`],
    ["a quoted JSON secret", '{"client_secret": "s3cr3t"}', `{"client_secret": "${REDACTED}"}`],
  ])("when the text holds %s, then the secret becomes [redacted]", (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it("when the text holds a PEM private key block, then the whole block is redacted", () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----";
    expect(redactSecrets(`before\n${pem}\nafter`)).toBe(`before\n${REDACTED}\nafter`);
  });

  it("when prose merely mentions passwords, then it is left alone", () => {
    const prose = "Password: the user wants to reset it. We counted total_tokens: 500.";
    expect(redactSecrets(prose)).toBe(prose);
  });
});

describe("capSummary", () => {
  it("when the text is exactly 16,384 bytes, then it is kept whole", () => {
    const text = "a".repeat(SUMMARY_MAX_BYTES);
    expect(capSummary(text)).toBe(text);
  });

  it("when the text is one byte over, then it is cut so text plus suffix is exactly 16,384 bytes", () => {
    const capped = capSummary("a".repeat(SUMMARY_MAX_BYTES + 1));
    expect(capped.endsWith(TRUNCATION_SUFFIX)).toBe(true);
    expect(bytes(capped)).toBe(SUMMARY_MAX_BYTES);
  });

  it("when the cut falls inside a multibyte character, then the whole character is dropped", () => {
    // 3-byte characters after one ASCII byte: the byte budget before the suffix
    // (16,364) lands mid-character, so the cut backs off to the character's start.
    const text = `a${"€".repeat(6000)}`;
    const capped = capSummary(text);
    expect(capped).not.toContain("\uFFFD");
    expect(bytes(capped)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(bytes(capped)).toBeGreaterThan(SUMMARY_MAX_BYTES - 3);
    const body = capped.slice(0, -TRUNCATION_SUFFIX.length);
    expect(body).toBe(`a${"€".repeat((bytes(body) - 1) / 3)}`);
  });

  it("when the text ends in 4-byte emoji, then no surrogate half survives the cut", () => {
    const capped = capSummary("😀".repeat(5000));
    const body = capped.slice(0, -TRUNCATION_SUFFIX.length);
    expect(body).toBe("😀".repeat(body.length / 2));
    expect(bytes(capped)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
  });
});

describe("exposeSummary", () => {
  it("when blocks mix text and media, then text joins and media becomes one-line placeholders", () => {
    expect(
      joinSummaryBlocks([
        { type: "text", text: "Read " },
        { type: "text", text: "the file." },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "Then done." },
      ]),
    ).toBe("Read the file.\n[image]\nThen done.");
  });

  it("when there are no blocks, then there is no summary", () => {
    expect(exposeSummary([])).toBeUndefined();
  });

  it("when a secret straddles the cap, then redaction runs first and nothing of it survives", () => {
    const secret = "sk-ant-api03-ZZZZZZZZZZZZZZZZZZZZZZZZ";
    const text = `${"x".repeat(SUMMARY_MAX_BYTES - 30)} ${secret} tail`;
    const exposed = exposeSummary([{ type: "text", text }]);
    expect(exposed).not.toContain("ZZZZ");
    expect(exposed).not.toContain("sk-ant");
    expect(bytes(exposed ?? "")).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
  });
});
