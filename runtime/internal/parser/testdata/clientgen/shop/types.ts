/** Whether an item can be bought. */
export type Status = "open" | "closed";

export enum Color {
  Red = "red",
  Green = "green",
}

// An item of the shop.
export interface Item {
  id: number;
  /** Its display name. */
  name: string;
  // Free-form labels.
  tags: string[];
  created: Date;
  status: Status;
  color?: Color | null;
  owner: Owner | null;
}

export interface Owner {
  email: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}
