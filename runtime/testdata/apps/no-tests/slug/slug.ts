import { api } from "encore.dev/api";
import { MaxLen } from "encore.dev/validate";

export interface SlugRequest {
  text: string & MaxLen<200>;
}

export interface Slug {
  slug: string;
}

/** Turns a title into a URL slug: lower case, words joined by hyphens, nothing else kept. */
export const slugify = api(
  { expose: true, method: "POST", path: "/slugs" },
  async ({ text }: SlugRequest): Promise<Slug> => {
    const words = text.normalize("NFKD").toLowerCase().match(/[a-z0-9]+/g) ?? [];
    return { slug: words.join("-") };
  },
);
