// The hash routes of the pages added for workspaces, and where signing in leads afterwards.
import { describe, expect, test } from "vitest";
import { href, parseRoute } from "../src/router.ts";

describe("parseRoute", () => {
  test("an invitation link's hash is the invite page with its token", () => {
    const token = "5vIQ-udp9o6rOmoqvhI4KKuTV4UnMCJtGpt9FF_UsII";
    expect(parseRoute(href.invite(token))).toEqual({ page: "invite", token });
  });

  test("a workspace's page takes a UUID; anything else is missing", () => {
    const id = "cab75046-4238-4ae8-b414-183a00e7ab62";
    expect(parseRoute(href.workspace(id))).toEqual({ page: "workspace", id });
    expect(parseRoute("#/workspaces")).toEqual({ page: "workspaces" });
    expect(parseRoute("#/workspaces/not-an-id")).toEqual({ page: "missing" });
  });

  test("login and sign-up carry the page to go back to, one of this site's only", () => {
    expect(parseRoute(href.loginThen("/invite/abc_DEF-1"))).toEqual({ page: "login", then: "/invite/abc_DEF-1" });
    expect(parseRoute(href.signupThen("/invite/abc"))).toEqual({ page: "signup", then: "/invite/abc" });
    expect(parseRoute("#/login")).toEqual({ page: "login" });
    // Another site, or script: dropped, so a crafted link cannot send a new session elsewhere.
    expect(parseRoute(`#/login?then=${encodeURIComponent("//evil.example/x")}`)).toEqual({ page: "login" });
    expect(parseRoute(`#/login?then=${encodeURIComponent("javascript:alert(1)")}`)).toEqual({ page: "login" });
  });
});
