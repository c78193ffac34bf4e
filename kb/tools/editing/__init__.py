"""Help while a situation is written: the one module the language server
(`aslkb lsp`, kb/cli/lsp.py) and the playground call, in the language's own
terms and with no protocol's types (docs/editor.md).

- analysis.analyse(text, filename) -> Analysis: the part that solves (parse,
  answers, expectations, conflicts), as plain data that crosses processes;
  analysis.answered(situation, settings, kb) for a situation parsed and settled
  elsewhere (the playground's edition and switches);
- feedback: diagnostics(text, analysis), inlay_hints(text, analysis),
  code_actions(text, analysis, first_line, last_line);
- completion: completions(text, line, character), and word_start(text, line, character): where
  the word they replace starts;
- hover: hover(text, line, character, analysis), definition(text, line, character).

Positions are 0-based lines and characters (code points).
"""
from .analysis import Analysis, analyse, answered
from .completion import Completion, completions, word_start
from .feedback import Action, Diagnostic, Edit, InlayHint, Related, Span, code_actions, diagnostics, inlay_hints
from .hover import Location, definition, hover

__all__ = ["Analysis", "analyse", "answered", "Completion", "completions", "word_start", "Action", "Diagnostic",
           "Edit", "InlayHint", "Related", "Span", "code_actions", "diagnostics", "inlay_hints", "Location",
           "definition", "hover"]
