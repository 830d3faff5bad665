"""Built-in navigators, each registered under the ``treebuild.navigators`` entry-point group."""
