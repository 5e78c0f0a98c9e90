import { api } from "encore.dev/api";

class Money {
  amount = 0;
  format(): string {
    return String(this.amount);
  }
}

export const pay = api({ path: "/pay" }, async (p: { price: Money }): Promise<void> => {
  void p;
});
