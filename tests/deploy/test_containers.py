"""Dockerfile, compose and Kubernetes files agree with each other and with the app.

Docker and a cluster are not available where the tests run, so these checks
read the files and test what usually breaks a deploy: a probe on the wrong
path or port, a Service selecting no pods, a root container, an env name the
settings do not know, a secret value committed by mistake. Each checker
returns readable problems, and each is shown to fail on a broken copy.
"""

from __future__ import annotations

import ast
import copy
import http.server
import re
import shlex
import shutil
import subprocess
import sys
import threading
import tomllib
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"

HEALTH_PATH = "/healthz"
# Liveness: the process serves; readiness: it can ack and its workers run.
PROBE_PATHS = {"startupProbe": "/livez", "readinessProbe": "/readyz", "livenessProbe": "/livez"}
PORT = 3000
SERVE_CMD = ["mpbot", "serve", "--host", "0.0.0.0", "--port", str(PORT)]
# The bot's settings (issue 3); bot/settings.py is checked against this list below.
SETTINGS = {
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_APP_TOKEN",
    "SLACK_API_URL",
    "SLACK_CLIENT_ID",
    "SLACK_CLIENT_SECRET",
    "DATABASE_URL",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "WORK_PROCESSES",
    "TOKEN_ENCRYPTION_KEYS",
}
COMPOSE_ONLY = {"POSTGRES_PASSWORD"}
PLACEHOLDER = "REPLACE-ME"
SECRET_KEYS = {"SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "SLACK_CLIENT_SECRET"}


# --- Dockerfile ----------------------------------------------------------------


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n", " ", text)
    pairs = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            pairs.append((keyword.upper(), rest.strip()))
    return pairs


def _exec_form(args: str) -> list[str]:
    return yaml.safe_load(args) if args.startswith("[") else shlex.split(args)


def final_stage(text: str) -> list[tuple[str, str]]:
    instructions = dockerfile_instructions(text)
    last_from = max(i for i, (k, _) in enumerate(instructions) if k == "FROM")
    return instructions[last_from:]


def dockerfile_problems(text: str) -> list[str]:
    stage = final_stage(text)
    problems = []
    base = stage[0][1].split()[0]
    if base != "python:3.11-slim":
        problems.append(f"runtime base is {base}, not python:3.11-slim")
    users = [args for k, args in stage if k == "USER"]
    if not users or users[-1].split(":")[0] in {"root", "0"}:
        problems.append("the runtime stage must end as a non-root USER")
    cmds = [_exec_form(args) for k, args in stage if k == "CMD"]
    if not cmds or cmds[-1] != SERVE_CMD:
        problems.append(f"CMD must be {SERVE_CMD}")
    if f"{PORT}" not in [
        a.split("/")[0] for k, args in stage if k == "EXPOSE" for a in args.split()
    ]:
        problems.append(f"EXPOSE {PORT} missing")
    checks = [args for k, args in stage if k == "HEALTHCHECK"]
    if not checks:
        problems.append("HEALTHCHECK missing")
    else:
        probe = checks[-1]
        if f":{PORT}{HEALTH_PATH}" not in probe:
            problems.append(f"HEALTHCHECK must probe :{PORT}{HEALTH_PATH}")
        if "urllib" not in probe or re.search(r"\b(curl|wget)\b", probe):
            problems.append("HEALTHCHECK must use python's urllib (slim has no curl)")
    return problems


def dockerfile_uid(text: str) -> int:
    user = [args for k, args in final_stage(text) if k == "USER"][-1]
    return int(user.split(":")[0])


DOCKERFILE = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")


def test_dockerfile_is_slim_non_root_with_healthcheck():
    assert dockerfile_problems(DOCKERFILE) == []


class _Health(http.server.BaseHTTPRequestHandler):
    status = 200

    def do_GET(self):
        self.send_response(self.status if self.path == HEALTH_PATH else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.mark.parametrize(("status", "healthy"), [(200, True), (503, False)])
def test_healthcheck_command_fails_when_healthz_does(status, healthy):
    """Run the image's HEALTHCHECK command against a local /healthz stand-in."""
    handler = type("Health", (_Health,), {"status": status})
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        probe = [args for k, args in final_stage(DOCKERFILE) if k == "HEALTHCHECK"][-1]
        command = _exec_form(probe[probe.index("CMD ") + 4 :])
        command = [a.replace(f":{PORT}/", f":{server.server_port}/") for a in command]
        assert command[0] == "python"
        result = subprocess.run(
            [sys.executable, *command[1:]], check=False, capture_output=True, timeout=30
        )
        server.shutdown()
    assert (result.returncode == 0) is healthy, result.stderr


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("USER 10001:10001", "USER root", "non-root USER"),
        ("USER 10001:10001\n", "", "non-root USER"),
        ("/healthz", "/health", "must probe"),
        ('"--port", "3000"]', '"--port", "8080"]', "CMD must be"),
        (
            'python", "-c", "import urllib.request; urllib.request.urlopen(',
            'curl", "-f", "(',
            "urllib",
        ),
        ("FROM python:3.11-slim\n", "FROM python:3.11\n", "not python:3.11-slim"),
    ],
)
def test_dockerfile_checks_reject_broken_copies(old, new, expected):
    assert old in DOCKERFILE
    problems = dockerfile_problems(DOCKERFILE.replace(old, new))
    assert any(expected in p for p in problems), problems


def test_dockerignore_keeps_secrets_and_venv_out_of_the_image():
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", "**/.env", ".venv", ".git"} <= set(ignored)
    # The wheel build needs these, so they must not be ignored.
    assert not {"bot", "pyproject.toml", "README.md"} & set(ignored)


def test_mpbot_is_the_installed_console_script():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "mpbot" in project["project"]["scripts"]


def dockerignore_patterns() -> list[str]:
    lines = (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def docker_context_copy(dest: Path) -> None:
    """Copy the repository as `docker build` would see it (minus .dockerignore)."""
    patterns = dockerignore_patterns()

    def ignored(directory: str, names: list[str]) -> set[str]:
        rel_dir = Path(directory).relative_to(REPO)
        return {
            name
            for name in names
            for pattern in patterns
            if fnmatch((rel_dir / name).as_posix(), pattern.removeprefix("**/"))
            or (pattern.startswith("**/") and fnmatch(name, pattern[3:]))
        }

    shutil.copytree(REPO, dest, ignore=ignored)


def test_wheel_the_image_installs_carries_the_app_and_its_catalogs(tmp_path):
    """The image runs the installed wheel, not the source tree: whatever the app
    reads at runtime (code, data, compiled translation catalogs) must be inside it.

    Built as the Dockerfile builds it (`pip wheel .`, with build isolation), so
    pip installs what [build-system] requires and the test environment's own
    setuptools (a fresh venv has 65.5) does not matter."""
    src = tmp_path / "context"
    docker_context_copy(src)
    assert not (src / ".venv").exists() and not (src / ".git").exists()
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps"]
        + ["--wheel-dir", str(tmp_path / "out"), str(src)],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "out").glob("mpestimate-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        assert "mpbot = bot.cli.main:main" in archive.read(entry_points).decode()
    assert "bot/cli/main.py" in names and "bot/slack/__init__.py" in names
    # Every language with a source catalog needs its compiled .mo in the wheel.
    needed = [
        f"{po.parent.relative_to(REPO / 'locales').as_posix()}/{po.stem}.mo"
        for po in (REPO / "locales").rglob("*.po")
    ]
    missing = [mo for mo in needed if not any(n.endswith("locales/" + mo) for n in names)]
    assert not missing, f"compiled catalogs missing from the wheel the image installs: {missing}"
    # And every data file the package reads at run time (evidence, op classes, words).
    data = [
        path.relative_to(REPO).as_posix()
        for path in (REPO / "bot").rglob("*")
        if path.suffix in (".csv", ".json", ".toml") and "__pycache__" not in path.parts
    ]
    absent = [path for path in data if path not in names]
    assert not absent, f"data files missing from the wheel the image installs: {absent}"


def test_image_installs_a_postgresql_driver():
    """compose and Kubernetes give the bot a postgresql+psycopg:// URL, so the
    package the image installs must bring psycopg (directly or via an extra
    the Dockerfile names)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    installs = " ".join(args for k, args in dockerfile_instructions(DOCKERFILE) if k == "RUN")
    requirements = list(project.get("dependencies", []))
    for extra, extra_requirements in project.get("optional-dependencies", {}).items():
        if f"[{extra}]" in installs:
            requirements += extra_requirements
    assert any(re.match(r"psycopg\b", r) for r in requirements), requirements


@pytest.mark.parametrize(
    "argv", [SERVE_CMD[1:], ["socket"]], ids=["image and k8s: serve", "compose: socket"]
)
def test_cli_accepts_the_commands_the_deploy_files_run(argv):
    from bot.cli.main import build_parser

    try:
        args = build_parser().parse_args(argv)
    except SystemExit:
        pytest.fail(f"mpbot does not accept {argv}, which the deploy files run")
    assert args.command == argv[0]


def test_build_script_imports_only_what_the_isolated_build_installs():
    """`docker build` runs `pip wheel .` with build isolation: a setup.py can only
    import the standard library and what [build-system] requires lists. (The
    wheel test above builds without isolation, so it cannot catch this.)"""
    setup = REPO / "setup.py"
    if not setup.is_file():
        pytest.skip("no setup.py: pyproject.toml alone drives the build")
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    requires = {
        re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower()
        for r in pyproject["build-system"]["requires"]
    }
    imported = set()
    for node in ast.walk(ast.parse(setup.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    third_party = {m.lower() for m in imported if m not in sys.stdlib_module_names}
    assert third_party <= requires, third_party - requires


# --- settings names ----------------------------------------------------------


def env_file_keys(path: Path) -> set[str]:
    """Keys set or offered (commented out) in a dotenv file."""
    return set(
        re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", path.read_text(encoding="utf-8"), re.MULTILINE)
    )


def test_env_example_names_only_known_settings():
    keys = env_file_keys(DEPLOY / ".env.example")
    assert keys - COMPOSE_ONLY <= SETTINGS, keys - COMPOSE_ONLY - SETTINGS
    assert {
        "SLACK_BOT_TOKEN",
        "SLACK_SIGNING_SECRET",
        "SLACK_APP_TOKEN",
        "POSTGRES_PASSWORD",
    } <= keys


def test_env_example_holds_no_real_secret():
    text = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    for key, value in re.findall(r"^#?\s*([A-Z_]+)=(.*)$", text, re.MULTILINE):
        if key in SECRET_KEYS | COMPOSE_ONLY:
            assert PLACEHOLDER in value, key


def test_settings_module_accepts_every_deployed_name():
    settings = pytest.importorskip("bot.settings", reason="Slack settings not written yet")
    from pydantic_settings import BaseSettings

    names: set[str] = set()
    for obj in vars(settings).values():
        if isinstance(obj, type) and issubclass(obj, BaseSettings) and obj is not BaseSettings:
            prefix = obj.model_config.get("env_prefix", "")
            for name, field in obj.model_fields.items():
                alias = field.validation_alias
                names.add((alias if isinstance(alias, str) else prefix + name).upper())
    assert SETTINGS <= names, SETTINGS - names


# --- compose -----------------------------------------------------------------


def compose_problems(compose: dict) -> list[str]:
    problems = []
    services = compose.get("services", {})
    bot, db = services.get("bot", {}), services.get("db", {})
    if not db.get("image", "").startswith("postgres:"):
        problems.append("db service must run PostgreSQL")
    if "test" not in db.get("healthcheck", {}):
        problems.append("db service needs a healthcheck")
    if bot.get("depends_on", {}).get("db", {}).get("condition") != "service_healthy":
        problems.append("bot must wait for a healthy db")
    if bot.get("env_file") != ".env":
        problems.append("bot must read settings from .env")
    build = bot.get("build", {})
    dockerfile = (DEPLOY / build.get("context", ".") / build.get("dockerfile", "")).resolve()
    if dockerfile != (DEPLOY / "Dockerfile").resolve():
        problems.append("bot must build deploy/Dockerfile from the repository root")
    url = bot.get("environment", {}).get("DATABASE_URL", "")
    env = db.get("environment", {})
    match = re.fullmatch(r"postgresql\+psycopg://([^:]+):(.+)@([^:/]+):5432/(\w+)", url)
    if not match:
        problems.append("DATABASE_URL must be postgresql+psycopg://USER:PASSWORD@HOST:5432/DB")
    else:
        user, password, host, name = match.groups()
        if host not in services:
            problems.append(f"DATABASE_URL host {host} is not a compose service")
        if (user, name) != (env.get("POSTGRES_USER"), env.get("POSTGRES_DB")):
            problems.append("DATABASE_URL user/database differ from the db service's")
        if password.split(":")[0] != env.get("POSTGRES_PASSWORD", "").split(":")[0]:
            problems.append("DATABASE_URL password differs from the db service's")
    for name, service in services.items():
        for key in service.get("environment", {}):
            if name.startswith("bot") and key not in SETTINGS:
                problems.append(f"{name} sets {key}, which is not a setting")
    return problems


def load_compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))


def test_compose_runs_bot_with_healthy_postgres():
    assert compose_problems(load_compose()) == []


def test_compose_socket_variant_runs_socket_mode():
    socket = load_compose()["services"]["bot-socket"]
    assert socket["command"] == ["mpbot", "socket"]
    assert socket["env_file"] == ".env"
    assert socket["healthcheck"] == {"disable": True}


def test_compose_interpolates_only_variables_the_env_example_offers():
    text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    used = set(re.findall(r"\$\{([A-Z_]+)", text))
    assert used and used <= env_file_keys(DEPLOY / ".env.example")


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda c: c["services"]["db"].pop("healthcheck"), "needs a healthcheck"),
        (lambda c: c["services"]["bot"].pop("depends_on"), "healthy db"),
        (
            lambda c: c["services"]["bot"]["environment"].update(
                DATABASE_URL="postgresql+psycopg://mpestimate:pw@postgres:5432/mpestimate"
            ),
            "not a compose service",
        ),
        (
            lambda c: c["services"]["bot"]["environment"].update(
                DATABASE_URL="postgresql://mpestimate:pw@db:5432/mpestimate"
            ),
            "postgresql+psycopg://",
        ),
        (lambda c: c["services"]["bot"]["environment"].update(SLACK_TOKEN="x"), "not a setting"),
    ],
)
def test_compose_checks_reject_broken_copies(mutate, expected):
    compose = copy.deepcopy(load_compose())
    mutate(compose)
    problems = compose_problems(compose)
    assert any(expected in p for p in problems), problems


# --- Kubernetes --------------------------------------------------------------


def load_k8s() -> dict[str, dict]:
    objects = {}
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            objects[doc["kind"]] = doc
    return objects


PROXY_PORT = 8080


def _container(deployment: dict, name: str = "bot") -> dict:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    (container,) = [c for c in containers if c["name"] == name]
    return container


def _ports(container: dict) -> dict:
    return {p.get("name"): p["containerPort"] for p in container.get("ports", [])}


def k8s_problems(objects: dict[str, dict]) -> list[str]:
    problems = []
    for kind, obj in objects.items():
        if not (obj.get("apiVersion") and obj.get("metadata", {}).get("name")):
            problems.append(f"{kind} lacks apiVersion or metadata.name")
    deployment, service = objects["Deployment"], objects["Service"]
    hpa, secret = objects["HorizontalPodAutoscaler"], objects["Secret"]
    pod = deployment["spec"]["template"]
    labels = pod["metadata"].get("labels", {})
    selector = deployment["spec"]["selector"]["matchLabels"]
    if not selector.items() <= labels.items():
        problems.append("Deployment selector does not match its pod labels")
    if not service["spec"]["selector"].items() <= labels.items():
        problems.append("Service selects no bot pods")

    container = _container(deployment)
    ports = _ports(container)
    proxy_ports = _ports(_container(deployment, "proxy"))
    for probe, path in PROBE_PATHS.items():
        get = container.get(probe, {}).get("httpGet", {})
        port = ports.get(get.get("port"), get.get("port"))
        if get.get("path") != path or port != PORT:
            problems.append(f"{probe} must GET {path} on container port {PORT}")
    for port in service["spec"]["ports"]:  # Slack reaches the bot through the proxy
        if proxy_ports.get(port["targetPort"], port["targetPort"]) != PROXY_PORT:
            problems.append("Service targetPort is not the proxy's port")
    resources = container.get("resources", {})
    if not (resources.get("requests", {}).get("cpu") and resources.get("limits", {}).get("memory")):
        problems.append("container needs CPU requests (for the HPA) and a memory limit")

    pod_security = pod["spec"].get("securityContext", {})
    security = container.get("securityContext", {})
    if not pod_security.get("runAsNonRoot") and not security.get("runAsNonRoot"):
        problems.append("pod must runAsNonRoot")
    if not security.get("readOnlyRootFilesystem"):
        problems.append("container root filesystem must be read-only")
    if security.get("allowPrivilegeEscalation") is not False:
        problems.append("privilege escalation must be off")

    secret_refs = {e["secretRef"]["name"] for e in container.get("envFrom", []) if "secretRef" in e}
    if secret["metadata"]["name"] not in secret_refs:
        problems.append("Deployment does not load the Secret")
    for key, value in secret.get("stringData", {}).items():
        if key not in SETTINGS:
            problems.append(f"Secret key {key} is not a setting")
        elif key in SECRET_KEYS | {"DATABASE_URL"} and PLACEHOLDER not in value:
            problems.append(f"Secret example {key} is not a placeholder")
    if secret.get("data"):
        problems.append("Secret example must use stringData placeholders, not data")
    for item in container.get("env", []):
        if item["name"] not in SETTINGS:
            problems.append(f"env {item['name']} is not a setting")

    target = hpa["spec"]["scaleTargetRef"]
    if hpa["apiVersion"] != "autoscaling/v2":
        problems.append("HPA must be autoscaling/v2")
    if (target["kind"], target["name"]) != ("Deployment", deployment["metadata"]["name"]):
        problems.append("HPA does not scale the Deployment")
    if not any(m.get("resource", {}).get("name") == "cpu" for m in hpa["spec"]["metrics"]):
        problems.append("HPA must scale on CPU")
    return problems


def test_k8s_objects_are_complete_and_consistent():
    objects = load_k8s()
    assert set(objects) == {"Deployment", "Service", "HorizontalPodAutoscaler", "Secret"}
    assert k8s_problems(objects) == []


def test_k8s_container_matches_the_image():
    container = _container(load_k8s()["Deployment"])
    assert container["args"] == SERVE_CMD
    pod_security = load_k8s()["Deployment"]["spec"]["template"]["spec"]["securityContext"]
    assert pod_security["runAsUser"] == dockerfile_uid(DOCKERFILE)


def test_kustomization_applies_everything_but_the_secret_example():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text(encoding="utf-8"))
    resources = set(kustomization["resources"])
    assert resources == {p.name for p in K8S.glob("*.yaml")} - {
        "kustomization.yaml",
        "secret.example.yaml",
    }


def test_autoscaling_cannot_exhaust_postgresql_connections():
    """Every replica has its own SQLAlchemy pool; at maxReplicas their sum must
    still fit PostgreSQL's default max_connections (100)."""
    store = (REPO / "bot" / "store" / "db.py").read_text(encoding="utf-8")
    pool = re.search(r"pool_size=(\d+), max_overflow=(\d+)", store)
    if pool is None:
        pytest.skip("store uses the default pool settings")
    per_replica = int(pool[1]) + int(pool[2])
    hpa = load_k8s()["HorizontalPodAutoscaler"]
    assert hpa["spec"]["maxReplicas"] * per_replica <= 100


def _set(path: str, value):
    def mutate(objects):
        *keys, last = path.split(".")
        node = objects
        for key in keys:
            node = node[int(key)] if key.isdigit() else node[key]
        node[last] = value

    return mutate


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            _set("Deployment.spec.template.spec.containers.0.readinessProbe.httpGet.path", "/"),
            "readinessProbe",
        ),
        (
            _set("Deployment.spec.template.spec.containers.0.livenessProbe.httpGet.port", 8080),
            "livenessProbe",
        ),
        (_set("Service.spec.selector", {"app": "other"}), "selects no bot pods"),
        (_set("Service.spec.ports.0.targetPort", 3000), "targetPort"),
        (_set("Deployment.spec.template.spec.securityContext", {}), "runAsNonRoot"),
        (
            _set(
                "Deployment.spec.template.spec.containers.0.securityContext.readOnlyRootFilesystem",
                False,
            ),
            "read-only",
        ),
        (
            _set("Deployment.spec.template.spec.containers.0.envFrom", []),
            "does not load the Secret",
        ),
        (
            _set("Secret.stringData.SLACK_SIGNING_SECRET", "8f14e45fceea167a5a36dedd4bea2543"),
            "placeholder",
        ),
        (_set("Secret.stringData.SLACK_SECRET", "REPLACE-ME"), "not a setting"),
        (_set("HorizontalPodAutoscaler.apiVersion", "autoscaling/v1"), "autoscaling/v2"),
        (_set("HorizontalPodAutoscaler.spec.scaleTargetRef.name", "other"), "does not scale"),
        (_set("Deployment.spec.template.spec.containers.0.resources", {}), "CPU requests"),
    ],
)
def test_k8s_checks_reject_broken_copies(mutate, expected):
    objects = copy.deepcopy(load_k8s())
    mutate(objects)
    problems = k8s_problems(objects)
    assert any(expected in p for p in problems), problems
