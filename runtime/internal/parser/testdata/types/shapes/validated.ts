import { api } from "encore.dev/api";
import type { EndsWith, IsEmail, IsURL, MatchesRegexp, Max, MaxLen, Min, MinLen, StartsWith } from "encore.dev/validate";

export interface Validated {
  link: string & MaxLen<10> & IsURL;
  score: number & Min<1> & Max<100>;
  name: string & MinLen<2>;
  tags: string[] & MinLen<1> & MaxLen<3>;
  codes: (string & MaxLen<5>)[];
  file: string & StartsWith<"a.b"> & EndsWith<"(z)">;
  slug: string & MatchesRegexp<"^[a-z]+$">;
  email: string & IsEmail;
  optionalScore?: number & Min<0>;
  nullableEmail: (string & IsEmail) | null;
}

export const validated = api({ method: "POST", path: "/validated" }, async (v: Validated): Promise<void> => {
  void v;
});
