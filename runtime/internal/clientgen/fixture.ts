// Test support: the parser fixture app the client tests generate from and serve.
import { fixture } from "../parser/fixture-paths.ts";
import { parseApp } from "../parser/mod.ts";

export const clientFixture = fixture("clientgen");
export const fixtureMeta = () => parseApp(clientFixture);
