import { api } from "encore.dev/api";
import { hooks } from "~encore/clients";

export const order = api({ method: "POST", path: "/orders" }, async (): Promise<void> => {
  // @ts-expect-error: the generated client has no raw endpoints
  await hooks.receive();
});
