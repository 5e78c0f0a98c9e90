import { api } from "encore.dev/api";

interface Line {
  from: Point;
}

interface Point {
  coords: [number, number];
}

export const draw = api({ path: "/draw" }, async (line: Line): Promise<void> => {
  void line;
});
