import { expect, test } from "vitest";
import { RowError } from "./records";
import { csvRow, jsonRow } from "./this-app";

test("a CSV row's options: flags as true/false or yes/no in any case, rules as their JSON text, the preview's three columns as one", () => {
  const rules = '[{"id":"r1","device":"ios","url":"https://a.example/ios"}]';
  expect(
    csvRow(
      {
        url: "https://a.example",
        domain: "go.example.com",
        redirecttype: "308",
        forwardquery: "No",
        startsat: "2030-01-02 03:04:05",
        fallbackurl: "https://a.example/over",
        allowindexing: "TRUE",
        previewtitle: "Card",
        previewdescription: "",
        previewimage: "https://a.example/card.png",
        rules,
      },
      2,
    ),
  ).toMatchObject({
    domain: "go.example.com",
    redirectType: 308,
    forwardQuery: false,
    startsAt: "2030-01-02T03:04:05.000Z",
    fallbackUrl: "https://a.example/over",
    allowIndexing: true,
    rules,
    preview: { title: "Card", image: "https://a.example/card.png" },
  });
  // An older export's row, without the columns: none of the options, so the links service's defaults.
  const plain = csvRow({ url: "https://a.example", previewtitle: "", rules: "" }, 3);
  for (const field of ["domain", "redirectType", "forwardQuery", "startsAt", "fallbackUrl", "allowIndexing", "rules", "preview"] as const) expect(plain[field], field).toBeUndefined();
  expect(() => csvRow({ url: "https://a.example", forwardquery: "maybe" }, 4)).toThrowError(new RowError('forwardQuery must be true or false, got "maybe"'));
  expect(() => csvRow({ url: "https://a.example", redirecttype: "permanent" }, 5)).toThrowError(/redirectType must be a whole number/);
});

test("a JSON link's options as the Link answers them; its rules passed on as JSON text whatever they hold, for the links service to check", () => {
  const rules = [{ id: "r1", countries: ["DE"], url: "https://a.example/de" }];
  expect(
    jsonRow({ originalUrl: "https://a.example", redirectType: 301, forwardQuery: true, allowIndexing: false, rules, preview: { title: "Card", image: null } }, 2),
  ).toMatchObject({ redirectType: 301, forwardQuery: true, allowIndexing: false, rules: JSON.stringify(rules), preview: { title: "Card" } });
  expect(jsonRow({ originalUrl: "https://a.example", rules: "not a list" }, 3).rules).toBe('"not a list"');
  expect(jsonRow({ originalUrl: "https://a.example", rules: null, preview: {} }, 4)).toMatchObject({ rules: undefined, preview: undefined });
  expect(() => jsonRow({ originalUrl: "https://a.example", preview: "Card" }, 5)).toThrowError(/preview must be an object/);
});
