"""The import-linter contract of docs/ARCHITECTURE.md: layers that may name modules by
wildcard and nest, and that leave no module out.

import-linter's own ``layers`` contract takes whole packages, so a layer cannot hold
``clabber_league.games.views`` while a lower one holds ``clabber_league.games``. Pages and
the API stay beside their app's services, yet form a layer of their own above every app;
this contract (``type = "carved_layers"``, registered in ``pyproject.toml``) allows that:

- an entry of a layer may be a module expression (``clabber_league.*.views``); an entry
  in parentheses is optional (it may match nothing);
- a module named by one entry is carved out of an entry that contains it: the deeper name
  wins, so ``clabber_league.games`` is the games app without its pages and API;
- every module of the root package must be in a layer, so a new app or module cannot
  slip past unchecked. A carved package's own ``__init__`` belongs to no layer: it must
  import nothing of the project.

Everything else (``ignore_imports`` and its alerting, indirect imports, the report) is
import-linter's layers contract, on explicit module names.
"""

from __future__ import annotations

import grimp
from importlinter.application import contract_utils, output
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import ContractCheck
from importlinter.domain.helpers import module_expression_to_modules
from importlinter.domain.imports import ModuleExpression


class CarvedLayersContract(LayersContract):
    type_name = "carved_layers"

    def validate(self) -> None:
        """Entries may repeat a package's name inside another's (that is the carving); a
        module named twice is still refused, when the graph is known (``check``)."""

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        removal = contract_utils.remove_ignored_imports_and_report(
            graph=graph,
            ignore_imports=self.ignore_imports,  # type: ignore[arg-type]
            unmatched_alerting=self.unmatched_ignore_imports_alerting,  # type: ignore[arg-type]
        )
        claims = self._claims(graph)
        layers: list[grimp.Layer] = []
        covers: dict[int, list[str]] = {}
        for index, layer in enumerate(self.layers):  # type: ignore[attr-defined]
            entries = sorted(name for name, owner in claims.items() if owner[0] == index)
            # One entry ("clabber_league.games") is one app, whatever it is carved into.
            independent = layer.is_independent and len(layer.module_tails) > 1
            modules: list[str] = []
            for name in entries:
                cover = _cover(graph, name, set(claims))
                if independent and cover != [name]:
                    raise ValueError(
                        f"{name} is carved, so its layer cannot be independent: use ':'."
                    )
                modules += cover
            covers[index] = modules
            if modules:
                layers.append(grimp.Layer(*modules, independent=independent))
        dependencies = graph.find_illegal_dependencies_for_layers(layers=layers)
        undeclared = _undeclared(graph, self, claims, covers)
        return ContractCheck(
            kept=not dependencies and not undeclared,
            warnings=list(removal.warnings),
            ignored_import_count=removal.ignored_import_count,
            metadata={
                "invalid_dependencies": self._build_invalid_chains(dependencies, graph),
                "undeclared_modules": undeclared,
            },
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        undeclared = check.metadata.pop("undeclared_modules")
        check.metadata["undeclared_modules"] = set()
        super().render_broken_contract(check)
        if undeclared:
            output.print("These modules are in no layer (add them to one, in pyproject.toml):")
            output.new_line()
            for module in sorted(undeclared):
                output.print_error(f"- {module}", bold=False)
            output.new_line()

    def _claims(self, graph: grimp.ImportGraph) -> dict[str, tuple[int, str]]:
        """Each module named by an entry: the index of its layer and the entry."""
        claims: dict[str, tuple[int, str]] = {}
        for index, layer in enumerate(self.layers):  # type: ignore[attr-defined]
            for tail in layer.module_tails:
                expression = ModuleExpression(tail.name)
                names = {m.name for m in module_expression_to_modules(graph, expression)}
                names &= graph.modules
                if not names and not tail.is_optional:
                    raise ValueError(f"Layer entry {tail.name} matches no module.")
                for name in names:
                    if name in claims:
                        raise ValueError(
                            f"{name} is named by {claims[name][1]} and by {tail.name}."
                        )
                    claims[name] = (index, tail.name)
        return claims


def _cover(graph: grimp.ImportGraph, name: str, claimed: set[str]) -> list[str]:
    """The largest packages and modules under ``name`` that hold no other claimed module."""
    if not any(other.startswith(name + ".") for other in claimed):
        return [name]
    cover: list[str] = []
    for child in sorted(graph.find_children(name)):
        if child not in claimed:
            cover += _cover(graph, child, claimed)
    return cover


def _undeclared(
    graph: grimp.ImportGraph,
    contract: CarvedLayersContract,
    claims: dict[str, tuple[int, str]],
    covers: dict[int, list[str]],
) -> set[str]:
    """The project's modules in no layer. A carved package's own ``__init__`` is in none
    (grimp's layers always hold a package whole): it may import only its own layer."""
    roots = contract.session_options["root_packages"]
    covered = [module for modules in covers.values() for module in modules]

    def within(module: str, names: list[str]) -> bool:
        return any(module == name or module.startswith(name + ".") for name in names)

    undeclared = set()
    for module in graph.modules:
        if module in roots or not any(module.startswith(root + ".") for root in roots):
            continue
        if within(module, covered):
            continue
        owner = next((claims[p][0] for p in _parents(module) if p in claims), None)
        imported = {
            name
            for name in graph.find_modules_directly_imported_by(module)
            if name.split(".")[0] in roots
        }
        carved_package = owner is not None and graph.find_children(module)
        if not carved_package or not all(within(name, covers[owner]) for name in imported):
            undeclared.add(module)
    return undeclared


def _parents(module: str) -> list[str]:
    """``module`` and the packages holding it, the nearest first."""
    parts = module.split(".")
    return [".".join(parts[:end]) for end in range(len(parts), 0, -1)]
