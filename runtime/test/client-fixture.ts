// The parser fixture app the client tests generate from and serve.
import { parseApp } from "../internal/parser/mod.ts";
import { fixture } from "./parser-fixtures.ts";

export const clientFixture = fixture("clientgen");
export const fixtureMeta = () => parseApp(clientFixture);
