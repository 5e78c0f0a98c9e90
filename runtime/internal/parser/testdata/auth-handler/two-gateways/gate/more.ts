import { Gateway } from "encore.dev/api";

export const another = new Gateway({});
