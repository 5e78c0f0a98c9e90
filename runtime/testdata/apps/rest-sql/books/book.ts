import type { Max, Min, MinLen } from "encore.dev/validate";

export interface Book {
  id: number;
  title: string;
  author: string;
  year: number;
}

/** What a client sends to create or replace a book. */
export interface BookFields {
  title: string & MinLen<1>;
  author: string & MinLen<1>;
  year: number & Min<0> & Max<3000>;
}
