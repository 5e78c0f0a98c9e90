import { middleware } from "encore.dev/api";

export const limit = middleware({ target: { auth: true } }, async (req, next) => next(req));
