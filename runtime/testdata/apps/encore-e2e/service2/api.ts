import { api, APIError } from "encore.dev/api";
import type { IsEmail, MaxLen, MinLen } from "encore.dev/validate";

interface GreetRequest {
  name: string;
  style?: "formal" | "casual" | "excited";
}

interface GreetResponse {
  greeting: string;
  timestamp: Date;
}

/** A greeting for the name given; service1 calls it too. */
export const greet = api({ expose: true, method: "POST", path: "/greet" }, async ({ name }: GreetRequest): Promise<GreetResponse> => {
  return { greeting: `Hey ${name}! How's it going?`, timestamp: new Date() };
});

interface MessageRequest {
  message: string & MinLen<3> & MaxLen<1000>;
  recipient?: string & IsEmail;
}

/** Reached only by requests that pass encore.dev/validate's rules. */
export const testInputValidation = api(
  { expose: true, method: "POST", path: "/test-validation" },
  async (_req: MessageRequest): Promise<{ message: string }> => {
    return { message: "Message processed" };
  },
);

const cause = () => new Error("this is the cause");

/** Throws an APIError with or without details and a cause, as the path's variant says. */
export const testApiError = api(
  { expose: true, method: "GET", path: "/test-api-error/:variant" },
  async ({ variant }: { variant: string }): Promise<{ message: string }> => {
    if (variant === "no-details-no-cause") throw APIError.canceled("the error");
    if (variant === "with-details-no-cause") throw APIError.canceled("the error").withDetails({ a: "detail" });
    if (variant === "no-details-with-cause") throw APIError.canceled("the error", cause());
    if (variant === "with-details-with-cause") throw APIError.canceled("the error", cause()).withDetails({ a: "detail" });
    return { message: "Hello there" };
  },
);

/** Throws an ordinary Error: Encore answers 500 internal and keeps the message for internal_message. */
export const testOtherError = api({ expose: true, method: "GET", path: "/test-other-error" }, async (): Promise<{ message: string }> => {
  throw new Error("This is a test error");
});
