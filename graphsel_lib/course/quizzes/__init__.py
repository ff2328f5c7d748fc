"""One quiz per chapter: ``qNN.py`` defines ``QUIZ``, a :class:`graphsel_lib.course.quiz.Quiz`."""
