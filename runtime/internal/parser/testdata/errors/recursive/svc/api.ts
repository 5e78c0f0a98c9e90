import { api } from "encore.dev/api";

interface Tree {
  name: string;
  children: Tree[];
}

export const plant = api({ path: "/trees" }, async (tree: Tree): Promise<void> => {
  void tree;
});
