import { expect, test } from "vitest";
import { shortUrlOf } from "./short-url";

test("on the instance's address without a domain; on a domain with the instance's scheme", () => {
  expect(shortUrlOf("abc", null, "https://sho.rt")).toBe("https://sho.rt/abc");
  expect(shortUrlOf("abc", "go.example.com", "https://sho.rt")).toBe("https://go.example.com/abc");
  expect(shortUrlOf("abc", "go.example.com", "http://localhost:4000")).toBe("http://go.example.com/abc");
});
