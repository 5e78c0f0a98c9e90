import { api, APIError, type Query } from "encore.dev/api";
import { MaxLen, MinLen } from "encore.dev/validate";

export interface Greeting {
  message: string;
}

const salutations: Record<string, string> = { en: "Hello", fr: "Bonjour", sv: "Hej" };

/** Greets the caller by the name in the path, in the language asked for (English by default). */
export const greet = api(
  { expose: true, method: "GET", path: "/greeting/:name" },
  async ({ name, lang }: { name: string; lang?: Query<"lang"> }): Promise<Greeting> => {
    const salutation = salutations[lang ?? "en"];
    if (!salutation) throw APIError.invalidArgument(`no greeting in "${lang}"; known: ${Object.keys(salutations).join(", ")}`);
    return { message: `${salutation} ${name}!` };
  },
);

interface GreetingRequest {
  name: string & MinLen<1> & MaxLen<40>;
  times: number;
}

/** Greets the name in the body as many times as asked, at most three. */
export const greetMany = api(
  { expose: true, method: "POST", path: "/greeting" },
  async ({ name, times }: GreetingRequest): Promise<Greeting> => {
    if (times < 1 || times > 3) throw APIError.invalidArgument("times must be between 1 and 3");
    return { message: Array.from({ length: times }, () => `Hello ${name}!`).join(" ") };
  },
);
