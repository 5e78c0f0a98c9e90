import { api } from "encore.dev/api";
import { Decimal } from "encore.dev/types";
import { pricing } from "~encore/clients";

export interface Line {
  price: Decimal;
  quantity: number;
}

export interface CartTotal {
  total: Decimal;
  lines: Decimal[];
}

// Each line is priced by the pricing service, through ~encore/clients.
export const total = api({ expose: true, method: "POST", path: "/cart/total" }, async (req: { lines: Line[] }): Promise<CartTotal> => {
  const lines: Decimal[] = [];
  for (const line of req.lines) {
    const q = await pricing.quote({ price: line.price, quantity: line.quantity });
    lines.push(q.total);
  }
  return { total: lines.reduce((sum, line) => sum.add(line), new Decimal(0)), lines };
});
