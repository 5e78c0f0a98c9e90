/** Each event as the page names it, in the API's order. */
export const eventLabels: Record<string, string> = {
  "link.created": "A link is created",
  "link.updated": "A link is changed",
  "link.deleted": "A link is deleted",
  "link.clicked": "Links are clicked (in batches)",
};
export const allEvents = Object.keys(eventLabels);
