import Ajv from "ajv";

// The forms, as JSON schemas for their answers. ajv 6 is the app's own choice.
const ajv = new Ajv({ allErrors: true });

const schemas: Record<string, object> = {
  signup: {
    type: "object",
    properties: {
      age: { type: "integer", minimum: 0 },
      newsletter: { type: "boolean" },
    },
    required: ["age"],
  },
};

/** The problems with `answers` for `form`, as ajv 6 words them; null when the form is unknown. */
export function problemsWith(form: string, answers: unknown): string[] | null {
  const schema = schemas[form];
  if (!schema) return null;
  const validate = ajv.compile(schema);
  if (validate(answers)) return [];
  return (validate.errors ?? []).map((error) => `${error.dataPath || "answers"} ${error.message ?? "is invalid"}`);
}
