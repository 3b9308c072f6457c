"""Self-play training, evaluation and the demo.

Importing this package asks torch's OpenMP threads to sleep at a barrier instead of spinning
(``OMP_WAIT_POLICY=PASSIVE``, unless the environment sets it; the OpenMP runtime reads it once,
when torch is first imported, so it holds for torch imported after this package). The update
runs torch on every core (training.selfplay.UpdateThreads); with the default spinning, a thread
that finds its core taken by another process holds every parallel operator up for a scheduler
slice: a Voll auf die 18 update minibatch with one other busy process on the 2 cores took
1,394-1,458 ms on 2 threads against 65-84 ms on one, and 77-80 ms on 2 sleeping threads.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
