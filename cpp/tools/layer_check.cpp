// An empty program linked with one whole layer library and the layers below it (CMakeLists.txt,
// TAVLI_LAYER_CHECKS): it links only if the layer calls nothing of the layers above.
int main() { return 0; }
