// Fills the greeting in from the API beside the front end.
const target = document.querySelector("#greeting");
const who = new URLSearchParams(location.search).get("name") ?? "";

const resp = await fetch(`/api/greeting?name=${encodeURIComponent(who)}`);
const { message } = (await resp.json()) as { message: string };
if (target) target.textContent = message;

export {};
