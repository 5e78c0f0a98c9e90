import { api, APIError } from "encore.dev/api";
import type { IsEmail } from "encore.dev/validate";
import { problemsWith } from "./schemas";

export interface Submission {
  email: string & IsEmail;
  answers: Record<string, unknown>;
}

export interface Receipt {
  form: string;
  email: string;
  accepted: boolean;
  problems: string[];
}

/** Checks a submission's answers against the form's schema and says what is wrong with them. */
export const submit = api(
  { expose: true, method: "POST", path: "/forms/:form" },
  async ({ form, email, answers }: { form: string } & Submission): Promise<Receipt> => {
    const problems = problemsWith(form, answers);
    if (problems === null) throw APIError.notFound(`no form named ${form}`);
    return { form, email, accepted: problems.length === 0, problems };
  },
);
