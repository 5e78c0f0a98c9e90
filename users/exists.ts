import { api } from "encore.dev/api";
import { userStore } from "./accounts/user-store";

export interface UserExistsRequest {
  id: string;
}

export interface UserExistsResponse {
  exists: boolean;
}

/** Whether an account still exists, so the auth handler can refuse tokens of deleted users. Internal. */
export const userExists = api(
  { expose: false, method: "GET", path: "/internal/users/:id/exists" },
  async ({ id }: UserExistsRequest): Promise<UserExistsResponse> => ({ exists: await userStore.exists(id) }),
);
