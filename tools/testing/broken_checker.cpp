// Does not compile, on purpose: the grader must show it as a BUILD row with this error and go
// on to the next exercise (test grade.prints_every_row). Not part of the normal build.
int main() {
  return undeclared_name;
}
