"""Play and watch Art Gallery in the browser (``art-gallery serve``).

:mod:`.games` keeps the server's games (saved after every decision), :mod:`.views` builds
every response from what its viewer may know (R8), :mod:`.replays` opens game records,
:mod:`.app` is the FastAPI app and :mod:`.server` runs it with uvicorn. The page in
``static/`` is plain HTML, CSS and JavaScript: no build step. Needs the ``web`` extra.
"""
