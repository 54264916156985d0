"""Demonstrations: a person's work recorded once, replayed by the agent, and reused as knowledge.

- `recorder`: listens to real input and writes a demonstration folder as it goes.
- `format`: the folder's format (`demo.json`, `steps.jsonl`, crops), its loader and library.
- `signature`: what a step's target looked like, and how to find it again.
- `replay`: the agent following recorded steps through the one executor.
- `knowledge`: the closest demonstrations for a task, as examples and as shortcuts.
- `from_run`: any successful run saved as a demonstration.
"""
