import { describe, expect, test } from "vitest";
import { getPreferences, saveTheme } from "./prefs";

describe("preferences in cookies", () => {
  test("a visitor without cookies gets the defaults", async () => {
    expect(await getPreferences({})).toEqual({ theme: "light", visits: 0 });
  });

  test("the cookies' values are read, typed", async () => {
    expect(await getPreferences({ theme: { value: "dark" }, visits: { value: 3 } })).toEqual({ theme: "dark", visits: 3 });
  });

  test("saving the theme answers the cookies to set, with their options", async () => {
    const saved = await saveTheme({ theme: "dark", visits: { value: 2 } });
    expect(saved.theme).toBe("dark");
    expect(saved.themeCookie).toMatchObject({ value: "dark", httpOnly: true, sameSite: "Lax", path: "/" });
    expect(saved.visitsCookie.value).toBe(3);
  });
});
