"""One exception for user mistakes, so the CLI and the web app can answer with one line."""


class UserError(Exception):
    """A mistake the user can fix (a missing file, a bad config, an unknown card id).

    The CLI prints it as one line on stderr and exits non-zero; the web app answers 4xx.
    Anything else that escapes is a bug and is allowed to show a traceback.
    """
