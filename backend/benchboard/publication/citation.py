"""How to cite a study, as BibTeX or as a CITATION.cff (Citation File Format 1.2.0).

Built from what the study's page shows (studies.service.get_study, so the same read
rules apply) and its runs' span: how many, first and last date, first and last commit.
Nothing depends on the clock (no "accessed" date): the answer is a function of the data,
as caching.py requires of every public read. The URL is the study's page on this server.
"""

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.models import Run
from benchboard.publication.schemas import CitationFormat
from benchboard.studies.schemas import Study
from benchboard.studies.service import get_study

MEDIA_TYPES: dict[CitationFormat, str] = {
    "bibtex": "application/x-bibtex; charset=utf-8",
    "cff": "application/x-yaml; charset=utf-8",
}


@dataclass(frozen=True)
class RunSpan:
    runs: int
    first: datetime | None
    last: datetime | None
    first_commit: str | None
    last_commit: str | None

    def words(self) -> str:
        if not self.runs or self.first is None or self.last is None:
            return "no runs"
        text = f"{self.runs} runs from {self.first:%Y-%m-%d} to {self.last:%Y-%m-%d}"
        if self.first_commit and self.last_commit:
            text += f", commits {self.first_commit[:12]}..{self.last_commit[:12]}"
        return text


def run_span(session: Session, suite: str) -> RunSpan:
    runs, first, last = session.execute(
        select(func.count(), func.min(Run.started_at), func.max(Run.started_at)).where(
            Run.suite == suite
        )
    ).one()
    commit = Run.git["commit"].astext
    with_commit = select(commit).where(Run.suite == suite, commit.is_not(None)).limit(1)
    return RunSpan(
        runs=runs,
        first=first,
        last=last,
        first_commit=session.scalar(with_commit.order_by(Run.started_at, Run.id)),
        last_commit=session.scalar(with_commit.order_by(Run.started_at.desc(), Run.id.desc())),
    )


def cite(session: Session, suite: str, citation_format: CitationFormat, *, page_url: str) -> str:
    study = get_study(session, suite)
    span = run_span(session, suite)
    write = bibtex if citation_format == "bibtex" else cff
    return write(study, span, page_url)


def bibtex(study: Study, span: RunSpan, page_url: str) -> str:
    fields = {
        "title": f"{{{_tex(study.title or study.suite)}}}",  # double braces keep its capitals
        "author": " and ".join(_tex(author) for author in study.authors) or "{Benchboard}",
        "year": f"{span.last:%Y}" if span.last else None,
        "month": f"{span.last:%b}".lower() if span.last else None,
        "howpublished": f"\\url{{{page_url}}}",
        "url": page_url,
        "note": _tex(f"Benchmark study on Benchboard: {span.words()}"),
    }
    key = "benchboard-" + "".join(c if c.isalnum() else "-" for c in study.suite)
    lines = [f"  {name} = {{{value}}}," for name, value in fields.items() if value is not None]
    return f"@misc{{{key},\n" + "\n".join(lines) + "\n}\n"


_TEX_SPECIAL = {c: f"\\{c}" for c in "&%$#_{}"} | {
    "\\": "\\textbackslash{}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
}


def _tex(text: str) -> str:
    return "".join(_TEX_SPECIAL.get(c, c) for c in text)


def cff(study: Study, span: RunSpan, page_url: str) -> str:
    """YAML written as JSON scalars (YAML 1.2 reads JSON): every string quoted safely."""
    authors = study.authors or ["Benchboard"]
    lines = [
        "cff-version: 1.2.0",
        'message: "If you use these results, please cite them as below."',
        "type: dataset",
        f"title: {_json(study.title or study.suite)}",
        "authors:",
        *(f"  - name: {_json(author)}" for author in authors),
        f"url: {_json(page_url)}",
        f"abstract: {_json(_abstract(study, span))}",
    ]
    if span.last:
        lines.append(f'date-released: "{span.last:%Y-%m-%d}"')
    if span.last_commit:
        lines.append(f"commit: {_json(span.last_commit)}")
    lines += ["keywords:", '  - "benchmark"', f"  - {_json(study.suite)}"]
    return "\n".join(lines) + "\n"


def _abstract(study: Study, span: RunSpan) -> str:
    return " ".join(part for part in (study.description, f"Results: {span.words()}.") if part)


def _json(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)
