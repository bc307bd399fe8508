"""An answer to a question the tracker asked: checked against the question, seen by its audience."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.live.corrections import Answer
from companion.live.table_game import (
    ANSWER_KIND,
    Question,
    answer_draft,
    question_draft,
)
from companion.store import PUBLIC, seat_visibility

CHOICES = [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}]


def test_an_answer_to_a_private_question_is_as_private_as_the_question() -> None:
    private = Question("hand-1", "Which card is in your hand?", CHOICES, seat=1)
    question, draft = answer_draft(
        {private.id: private}, Answer(question="hand-1", answer="red"), 1
    )
    assert question is private
    assert draft.kind == ANSWER_KIND
    assert draft.payload == {"question": "hand-1", "answer": "red", "seat": 1}
    assert draft.visibility == seat_visibility(1) == question_draft(private).visibility


def test_an_answer_to_a_public_question_is_public() -> None:
    public = Question("square-2-3", "What stands on [2, 3]?", CHOICES)
    _, draft = answer_draft({public.id: public}, Answer(question=public.id, answer="blue"), None)
    assert draft.visibility == PUBLIC


def test_an_answer_that_is_not_offered_or_to_no_open_question_is_refused() -> None:
    open_questions = {"q": Question("q", "?", CHOICES)}
    with pytest.raises(UserError, match=r"^answer must be one of \['red', 'blue'\]$"):
        answer_draft(open_questions, Answer(question="q", answer="green"), None)
    with pytest.raises(UserError, match=r"^no open question 'gone'$"):
        answer_draft(open_questions, Answer(question="gone", answer="red"), None)


def test_a_question_read_back_from_its_event_is_the_question_asked() -> None:
    asked = Question("q", "Which?", CHOICES, seat=0)
    assert Question.from_json(question_draft(asked).payload) == asked
