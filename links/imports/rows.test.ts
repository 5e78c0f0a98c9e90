import { expect, test } from "vitest";
import { passwords } from "../../passwords/passwords";
import { checkPasswordHash } from "./rows";

test("an imported password hash: one this app makes passes; other parameters, or a short salt or key, are refused", async () => {
  const hash = await passwords.hash("open sesame");
  expect(checkPasswordHash(hash)).toBe(hash);
  const [, , , , salt, key] = hash.split("$");
  for (const forged of [
    `scrypt$1048576$32$1$${salt}$${key}`, // 4 GiB a check
    `scrypt$32768$8$16$${salt}$${key}`,
    `scrypt$32768$8$1$AAAA$${key}`,
    `scrypt$32768$8$1$${salt}$AAAAAAAA`,
    `bcrypt$32768$8$1$${salt}$${key}`,
    `${hash}$`,
  ]) {
    expect(() => checkPasswordHash(forged), forged).toThrowError(/passwordHash must be/);
  }
});
