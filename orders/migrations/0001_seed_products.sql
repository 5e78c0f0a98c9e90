-- A few products, so the shop's endpoints answer on a fresh start (ids 1 to 4).
INSERT INTO "products" ("name", "price", "currency") VALUES
  ('Encore T-shirt', 25.00, 'USD'),
  ('Sticker pack', 4.99, 'USD'),
  ('Coffee mug', 12.50, 'USD'),
  ('Hoodie', 59.95, 'USD');
