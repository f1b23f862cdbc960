import { describe, expect, it } from "vitest";
import { formatCost, formatPercent, formatTokens } from "./format-tokens";

describe("formatTokens", () => {
  it.each([
    [0, "0"],
    [950, "950"],
    [999, "999"],
    [1000, "1K"],
    [1049, "1K"],
    [1050, "1.1K"],
    [12_000, "12K"],
    [12_040, "12K"],
    [89_700, "89.7K"],
    [89_749, "89.7K"],
    [171_234, "171.2K"],
    [256_000, "256K"],
    [999_949, "999.9K"],
    [999_960, "1M"],
    [1_200_000, "1.2M"],
    [1_000_000, "1M"],
    [2_000_000_000, "2B"],
    [-1_500, "-1.5K"],
    [950.6, "951"],
  ])("%d reads %s", (count, text) => {
    expect(formatTokens(count)).toBe(text);
  });

  it("when the count is not a number, then it reads as a dash", () => {
    expect(formatTokens(Number.NaN)).toBe("—");
    expect(formatTokens(Number.POSITIVE_INFINITY)).toBe("—");
  });
});

describe("formatPercent", () => {
  it.each([
    [0, "0%"],
    [0.0004, "<0.1%"],
    [0.001, "0.1%"],
    [0.064, "6.4%"],
    [0.05, "5%"],
    [0.0996, "10%"],
    [0.1, "10%"],
    [0.3504, "35%"],
    [0.355, "36%"],
    [1, "100%"],
    [1.04, "104%"],
  ])("%d reads %s", (ratio, text) => {
    expect(formatPercent(ratio)).toBe(text);
  });
});

describe("formatCost", () => {
  it.each([
    [2.0643, "$2.06"],
    [0.5106, "$0.51"],
    [0.0937, "$0.094"],
    [1.5, "$1.50"],
    [123.456, "$123.46"],
    [0.0081, "<$0.01"],
    [0, "$0.00"],
  ])("when the amount is %s USD, then it reads %s", (amount, text) => {
    expect(formatCost(amount, "USD")).toBe(text);
  });

  it("keeps the rule in other currencies", () => {
    expect(formatCost(0.5, "EUR")).toBe("€0.50");
    expect(formatCost(0.004, "EUR")).toBe("<€0.01");
  });

  it("falls back to the bare amount when the currency is missing or unknown", () => {
    expect(formatCost(0.25, undefined)).toBe("0.25");
    expect(formatCost(0.25, "not a code")).toBe("0.25 not a code");
    expect(formatCost(0.001, undefined)).toBe("<0.01");
  });

  it("when the amount is not a number, then it reads as a dash", () => {
    expect(formatCost(Number.NaN, "USD")).toBe("—");
  });
});
