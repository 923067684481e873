"""The Python dependencies of infiniop-py, read from pyproject.toml.

--list   print the runtime and test requirements, one argument each
--check  exit 0 when the running interpreter can import all of them
"""
import importlib
import pathlib
import re
import sys

# Distribution name -> module that proves it is installed.
MODULES = {
    "numpy": "numpy",
    "cffi": "cffi",
    "ml-dtypes": "ml_dtypes",
    "cuda-core": "cuda.core",
    "cuda-bindings": "cuda.bindings",
    "pytest": "pytest",
    "hypothesis": "hypothesis",
}


def requirements():
    text = (pathlib.Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11: the two lists are simple enough
        deps = re.search(r"^dependencies\s*=\s*\[(.*?)\]", text, re.S | re.M).group(1)
        test = re.search(r"^test\s*=\s*\[(.*?)\]", text, re.S | re.M).group(1)
        return re.findall(r'"([^"]+)"', deps) + re.findall(r'"([^"]+)"', test)
    data = tomllib.loads(text)["project"]
    return data["dependencies"] + data["optional-dependencies"]["test"]


def main():
    reqs = requirements()
    if "--check" in sys.argv:
        for req in reqs:
            name = re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0].lower()
            importlib.import_module(MODULES.get(name, name.replace("-", "_")))
        return
    print(" ".join(reqs))


if __name__ == "__main__":
    main()
