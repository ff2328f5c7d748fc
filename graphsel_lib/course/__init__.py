"""What the course chapters (00-13) use beside the algorithms: checks, quizzes and exercises.

``checks`` keeps a chapter's three kinds of checks apart (identities, claims for every run,
numbers quoted from the default run); ``quiz`` renders the self-check quiz that closes each
chapter and checks its numeric answers against the library; ``exercises`` says whether an
exercise stub has been answered. The algorithm packages never import this package.
"""

from .checks import ChapterChecks, ClaimFailed

__all__ = ["ChapterChecks", "ClaimFailed"]
