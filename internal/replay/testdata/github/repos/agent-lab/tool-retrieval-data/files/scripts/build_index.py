"""Build the tool-retrieval index: one document per tool function (name + docstring)."""
import ast
import json
import pathlib
import sys


def tool_docs(root):
    for path in sorted(pathlib.Path(root).rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                yield {
                    "tool": path.stem,
                    "category": path.parent.name,
                    "api": node.name,
                    "doc": (ast.get_docstring(node) or "").strip(),
                    "params": [a.arg for a in node.args.args if a.arg != "toolbench_rapidapi_key"],
                }


if __name__ == "__main__":
    docs = list(tool_docs(sys.argv[1] if len(sys.argv) > 1 else "tools"))
    pathlib.Path("index.jsonl").write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    print(len(docs), "tools indexed")
