// Share links: the whole state of the page in the URL's fragment, which the
// browser never sends to the server:
//   #s=TEXT&e=EDITION&on=NAME,NAME&off=NAME&cmp=1
// TEXT is the situation's UTF-8 text as base64url without padding; the other
// fields appear only when they differ from the page's defaults (edition as
// the situation says, no switch moved, one edition at a time). A link of the
// first playground, `#s=TEXT` alone, reads as before.
const EDITIONS = new Set(["asl", "sl4"]);
const NAME = /^[a-z0-9_]+$/;

export function encodeText(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeText(code) {
  if (!/^[A-Za-z0-9_-]*$/.test(code) || code.length % 4 === 1) throw new Error("not base64url");
  const base64 = code.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

// The fragment of a state {text, edition, on, off, compare}.
export function encodeShare(shared) {
  let fragment = "#s=" + encodeText(shared.text);
  if (shared.edition) fragment += "&e=" + shared.edition;
  if (shared.on.length) fragment += "&on=" + [...shared.on].sort().join(",");
  if (shared.off.length) fragment += "&off=" + [...shared.off].sort().join(",");
  if (shared.compare) fragment += "&cmp=1";
  return fragment;
}

// The state a fragment holds; null when it is no share link at all (no `#s=`);
// an Error saying what is wrong when it is one but damaged.
export function decodeShare(fragment) {
  if (!fragment.startsWith("#s=")) return null;
  const fields = new Map();
  for (const part of fragment.slice(1).split("&")) {
    const [key, ...rest] = part.split("=");
    if (fields.has(key)) return new Error(`the field '${key}' appears twice`);
    fields.set(key, rest.join("="));
  }
  for (const key of fields.keys()) {
    if (!["s", "e", "on", "off", "cmp"].includes(key)) return new Error(`it has an unknown field '${key.slice(0, 20)}'`);
  }
  let text;
  try {
    text = decodeText(fields.get("s"));
  } catch {
    return new Error("its text cannot be decoded (not base64url of UTF-8)");
  }
  const edition = fields.get("e") ?? "";
  if (edition && !EDITIONS.has(edition)) return new Error(`its edition '${edition.slice(0, 20)}' is not asl or sl4`);
  const names = (key) => (fields.get(key) ? fields.get(key).split(",") : []);
  const on = names("on"), off = names("off");
  const bad = [...on, ...off].find((name) => !NAME.test(name));
  if (bad !== undefined) return new Error(`'${bad.slice(0, 30)}' is not an interpretation name`);
  const compare = fields.get("cmp") ?? "";
  if (compare !== "" && compare !== "1") return new Error("its side-by-side field is not 1");
  return { text, edition: edition || null, on, off, compare: compare === "1" };
}
