// Syntax highlighting for the situation language (parser/situation.lark):
// the statement keyword that opens a line, the connecting words, numbers,
// `=` and lists of expect lines, and `#` comments.
const CONNECTIVES = new Set(["at", "by", "to", "on", "off", "colored", "white", "dr"]);

export const situationLanguage = {
  name: "situation",
  startState: () => ({ lineStart: true }),
  token(stream, state) {
    if (stream.sol()) state.lineStart = true;
    if (stream.eatSpace()) return null;
    if (stream.peek() === "#") {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match(/^[=\[\],]/)) return "operator";
    const word = stream.match(/^[^\s=\[\],#]+/);
    if (!word) {
      stream.next();
      return null;
    }
    const text = word[0];
    const first = state.lineStart;
    state.lineStart = false;
    if (first) return text === "query" || text === "expect" ? "keyword strong" : "keyword";
    if (/^-?\d+(\/\d+|\.\d+)?%?$/.test(text)) return "number";
    if (CONNECTIVES.has(text)) return "operatorKeyword";
    if (/^\d+[A-Za-z]+\d+$/.test(text)) return "atom";  // a hex: 3R6
    if (/^[A-Z]/.test(text)) return "variableName";    // an id: G1, A1
    return null;
  },
  languageData: { commentTokens: { line: "#" } },
};
