"""One approval policy: what the task names is consented; risky actions nobody named wait."""

from __future__ import annotations

import pytest

from clickwright.agent.safety import Consent, risk_of
from clickwright.types import Box, Click, Element, Hotkey, Launch, Target, Type

SUBMIT = Element(1, Box(0, 0, 80, 20), "button", "Submit", interactive=True)
DELETE = Element(2, Box(0, 0, 80, 20), "button", "Delete customer", interactive=True)
PASSWORD = Element(3, Box(0, 0, 80, 20), "input", "", interactive=True, name="Password:")
CLICK = Click(target=Target(id=1))
SEND_MONEY = Element(4, Box(0, 0, 80, 20), "button", "Send money", interactive=True)
DELETE_ACCOUNT = Element(5, Box(0, 0, 80, 20), "button", "Delete account", interactive=True)
SEND_REQUEST = Element(6, Box(0, 0, 80, 20), "button", "Send request", interactive=True)
REMOVE = Element(7, Box(0, 0, 80, 20), "button", "Remove", interactive=True)


@pytest.mark.parametrize(
    ("task", "element", "consented"),
    [
        ("Type Ada into Name and click Submit", SUBMIT, True),
        ("fill in the form and submit", SUBMIT, True),
        ("Delete the customer Ada", DELETE, True),
        ("delete this customer", DELETE, True),
        ("Add a customer called Ada", DELETE, False),
        ("click Save", SUBMIT, False),
        ("", DELETE, False),
        ("send 50 to account 9988-7766", SEND_MONEY, True),
        ("Sends 50 to Bo", SEND_MONEY, True),
        ("tick Newsletter", SEND_MONEY, False),
        ("delete the old files", DELETE_ACCOUNT, False),
        ("delete my account", DELETE_ACCOUNT, True),
        ("write the message and submit", SEND_REQUEST, True),  # the same act in other words
        ("delete Jonas from the team", REMOVE, True),
        ("submit the form", DELETE, False),
        ("remove my account", DELETE_ACCOUNT, True),
        ("remove the old files", DELETE_ACCOUNT, False),
        ("Contact support as Lena Holm about a damaged item", SEND_REQUEST, True),  # its submit
        ("sort by order date", Element(8, Box(0, 0, 80, 20), "button", "Checkout"), False),
        ("throw away my changes", Element(9, Box(0, 0, 80, 20), "button", "Discard"), True),
        ("yes", DELETE, False),  # the question's risky answer, never named
        ("forget my password", DELETE_ACCOUNT, False),
        ("Search for action movies directed by Bowen from year 1998", SUBMIT, True),  # its run
        ("look for action movies", SUBMIT, False),
        ("Give Bobine the message you received from Cora",
         Element(10, Box(0, 0, 80, 20), "button", "Send", interactive=True), True),  # forward
        ("Give Bobine the pen", Element(10, Box(0, 0, 80, 20), "button", "Send"), False),
        ("delete the customer in Tromsø",  # a bin icon read as a letter before its label
         Element(11, Box(0, 0, 80, 20), "menuitem", "x Delete customer"), True),
        ("tick the customer in Tromsø",
         Element(11, Box(0, 0, 80, 20), "menuitem", "x Delete customer"), False),
    ],
)
def test_a_click_is_consented_when_the_task_names_it(task, element, consented):
    risk = risk_of(CLICK, element)
    assert risk is not None
    assert Consent(task).covers(risk) is consented


@pytest.mark.parametrize(
    "label",
    ["Don't send", "Do not delete", "No, don't submit", "Never pay", "Continue to payment",
     "Proceed to checkout"],
)  # fmt: skip
def test_a_button_that_declines_the_risky_thing_is_not_risky(label):
    assert risk_of(CLICK, Element(1, Box(0, 0, 80, 20), "button", label, interactive=True)) is None


def test_a_secret_the_task_gives_is_consented_and_no_other():
    typed = Type(text="hunter2", target=Target(id=3))
    risk = risk_of(typed, PASSWORD)
    assert risk is not None
    assert Consent("log in with the password hunter2").covers(risk)
    assert not Consent("log in").covers(risk)
    assert Consent("replay login", values=("hunter2",)).covers(risk)


def test_keys_and_commands_are_consented_only_when_named():
    keys = risk_of(Hotkey(keys=("shift", "delete")), None)
    assert keys is not None
    assert Consent("select the file and press Shift+Delete").covers(keys)
    assert not Consent("select the file").covers(keys)
    launch = risk_of(Launch(app="touch /tmp/x"), None)
    assert launch is not None and "touch /tmp/x" in launch.why
    assert not Consent("click Subscribe to newsletter").covers(launch)


def test_a_risk_the_models_vendor_flagged_is_acknowledged_only_when_approved(tmp_path):
    from clickwright.agent.runlog import RunLog
    from clickwright.agent.safety import Flag
    from clickwright.agent.state import RunSettings, RunState, Stopped

    def state(**settings) -> RunState:
        log = RunLog(tmp_path, "click Submit")
        run = RunState("click Submit", None, None, log, RunSettings(**settings))  # type: ignore[arg-type]
        run.consent = Consent("click Submit")
        return run

    flag = Flag("OpenAI's safety check: malicious instructions")
    with pytest.raises(Stopped, match="malicious instructions"):
        state().approve(CLICK, SUBMIT, flag)  # the task's words cannot consent to it
    assert not flag.approved
    assert state(approve_risky=True).approve(CLICK, SUBMIT, flag) == "approved in advance"
    assert flag.approved
    assert state().approve(CLICK, SUBMIT, Flag("x", approved=True)) == "named by the task"
