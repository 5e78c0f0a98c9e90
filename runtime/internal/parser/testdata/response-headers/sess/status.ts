import { api, type HttpStatus } from "encore.dev/api";

interface Created {
  id: string;
  /** The answer's HTTP status, not a field of its body. */
  status: HttpStatus;
}

export const createSession = api({ expose: true, method: "POST", path: "/sessions" }, async (): Promise<Created> => ({ id: "s1", status: 201 }));
