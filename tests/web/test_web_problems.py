"""The rules' problems put back next to the form fields they name (web/problems.py): one way
for the deal form and every house-rules form, with one fallback, the form's top."""

from __future__ import annotations

from flask import Flask

from scorekeeper.rules import Problem
from scorekeeper.web.main.forms import NewGameForm
from scorekeeper.web.problems import TOP, option_field, put_back, put_on_form


def test_a_problem_goes_under_the_field_it_names_else_at_the_top(app: Flask) -> None:
    problems = [
        Problem("pool too small", field="options.pool_target"),
        Problem("no such option", field="options.nothing"),
        Problem("about nothing in particular"),
    ]
    with app.test_request_context("/?lang=en"):
        placed = put_back(problems, option_field, {"opt_pool_target"})
    assert placed == {
        "opt_pool_target": ["pool too small"],
        TOP: ["no such option", "about nothing in particular"],
    }


def test_a_house_rules_form_shows_each_problem_after_what_its_field_said(app: Flask) -> None:
    with app.test_request_context("/new?lang=en", method="POST"):
        form = NewGameForm(meta={"csrf": False})
        form.opt_stake.errors = ["said by the field"]
        top = put_on_form(
            form,
            [Problem("stake {why}", {"why": "too big"}, "options.stake"), Problem("lost")],
        )
        assert form.opt_stake.errors == ["said by the field", "stake too big"]
        assert top == ["lost"]
        assert form.form_errors == ["lost"]
