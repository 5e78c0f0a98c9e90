import type { Plugin } from "vite";
/** The vitest plugin of an `encore test` run: aliases, one PostgreSQL server per run, databases per test file. */
export declare function encoreSelfhost(): Plugin;
